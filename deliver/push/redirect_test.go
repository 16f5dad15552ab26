package push

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ocean-safety/ingest/deliver/push/receiver"
)

// TestPushRedirects checks no redirect makes a request look acknowledged
// when its body was not delivered: a POST follows only 307 and 308 to its
// own origin (the body sent again), any other redirect stops the push
// naming the URL; a task poll follows redirects on its own origin only; a
// loop stops; and a 2xx whose answer is not the contract's acknowledgement
// (a status page, a queued status) is not counted as one. A front server
// scripts the answers and hands everything else to the receiver.
func TestPushRedirects(t *testing.T) {
	t.Parallel()
	snap := snapshotOf(t, nil)
	var otherHits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		otherHits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"succeeded"}`))
	}))
	t.Cleanup(other.Close) // the parallel cases run after this function returns

	// A script answers a request instead of the receiver, or returns false.
	type script func(w http.ResponseWriter, req *http.Request) bool
	post := func(code int, to func(front string) string) func(front string) script {
		return func(front string) script {
			return func(w http.ResponseWriter, req *http.Request) bool {
				if req.Method != http.MethodPost || req.URL.RawQuery != "" {
					return false
				}
				http.Redirect(w, req, to(front), code)
				return true
			}
		}
	}
	self := func(front string) string { return front + "/ingest?moved=1" }
	status := func(front string) string { return front + "/status" }
	elsewhere := func(string) string { return other.URL + "/ingest" }
	answer := func(code int, ctype, body string) func(string) script {
		return func(string) script {
			return func(w http.ResponseWriter, req *http.Request) bool {
				if req.Method != http.MethodPost {
					return false
				}
				w.Header().Set("Content-Type", ctype)
				w.WriteHeader(code)
				w.Write([]byte(body))
				return true
			}
		}
	}
	tests := []struct {
		name    string
		script  func(front string) script
		async   bool
		wantErr string // "" for a push that succeeds
	}{
		{name: "301 to a page that answers GET 200", script: post(301, status), wantErr: "answered 301 Moved Permanently to http://127.0.0.1"},
		{name: "302 to a page that answers GET 200", script: post(302, status), wantErr: "answered 302 Found to"},
		{name: "303 to a page that answers GET 200", script: post(303, status), wantErr: "answered 303 See Other to"},
		{name: "301 to itself", script: post(301, self), wantErr: "would drop its body"},
		{name: "307 to itself, body sent again", script: post(307, self)},
		{name: "308 to itself, body sent again", script: post(308, self)},
		{name: "307 to another origin", script: post(307, elsewhere), wantErr: "to the destination's own origin only"},
		{name: "redirect loop", script: func(front string) script {
			return func(w http.ResponseWriter, req *http.Request) bool {
				http.Redirect(w, req, front+"/ingest?n="+req.URL.Query().Get("n")+"x", http.StatusTemporaryRedirect)
				return true
			}
		}, wantErr: "stopped after 5 redirects"},
		{name: "a task moved on its own origin", async: true, script: func(front string) script {
			return func(w http.ResponseWriter, req *http.Request) bool {
				if req.Method != http.MethodGet || !strings.HasPrefix(req.URL.Path, "/tasks/") || strings.HasSuffix(req.URL.Path, "/") {
					return false
				}
				http.Redirect(w, req, front+req.URL.Path+"/", http.StatusFound)
				return true
			}
		}},
		{name: "a task moved to another origin", async: true, script: func(string) script {
			return func(w http.ResponseWriter, req *http.Request) bool {
				if req.Method != http.MethodGet {
					return false
				}
				http.Redirect(w, req, other.URL+req.URL.Path, http.StatusFound)
				return true
			}
		}, wantErr: "polled on the destination's own origin only"},
		{name: "200 with a web page", script: answer(200, "text/html", "<html>Sign in</html>"), wantErr: "with no JSON object: not an acknowledgement"},
		{name: "200 with a queued status", script: answer(200, "application/json", `{"status":"queued"}`), wantErr: `with status "queued": not an acknowledgement`},
		{name: "203 is no acknowledgement", script: answer(203, "application/json", `{"status":"succeeded"}`), wantErr: "203 Non-Authoritative Info"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			otherHits.Store(0)
			ropt := receiver.Options{Token: token}
			if tt.async {
				ropt.AsyncEvery, ropt.TaskPolls = 1, 1
			}
			r := newReceiver(t, ropt)
			var sc script
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				if sc(w, req) {
					return
				}
				if req.URL.Path == "/status" {
					w.Header().Set("Content-Type", "application/json")
					w.Write([]byte(`{"status":"succeeded"}`))
					return
				}
				req.URL.Path = strings.TrimSuffix(req.URL.Path, "/")
				r.Config.Handler.ServeHTTP(w, req)
			}))
			defer front.Close()
			sc = tt.script(front.URL)
			opt := options(t, r, snap, t.TempDir())
			opt.Settings.To = front.URL + "/ingest"
			_, err := Push(context.Background(), opt)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("got %v, want a push that succeeds", err)
				}
				checkHolds(t, r, snap)
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got error %v, want one with %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), token) {
				t.Errorf("the token is in the error: %v", err)
			}
			if n := otherHits.Load(); n != 0 {
				t.Errorf("another origin got %d requests, want 0", n)
			}
			if st := r.Stats(); st.Requests > 0 && st.Upserts == st.Requests && strings.Contains(tt.name, "GET 200") {
				t.Errorf("the receiver applied every request: the redirect did nothing")
			}
		})
	}
}
