package receiver

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// TestKilledClientReadLate: a request the server reads only after Thaw,
// from a client seen before it (a killed push whose last request waited in
// its socket), is answered 410, neither counted nor applied, so the next
// run cannot send it "again" after an acknowledgement nobody saw (the
// cause of TestPushKillResume's "1 acknowledged requests sent again" under
// load); a new client's request is handled as usual.
func TestKilledClientReadLate(t *testing.T) {
	t.Parallel()
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const killed, next = "0af7651916cd43dd8448eb211c80319c", "4bf92f3577b34da6a3ce929d0e0e4736"
	send := func(trace, doc string) (status int, key string) {
		t.Helper()
		body := fmt.Sprintf(`{"contract":1,"operation":"delete","tenant_id":"3f2b6c1e-8d4a-4c1b-9e7f-2a5d6b8c9e01","source_label":"test","snapshot":"s",`+
			`"deletes":[{"doc_id":"%s","version_id":"9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f","reason":"removed"}]}`, doc)
		sum := sha256.Sum256([]byte(body))
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte(body))
		zw.Close()
		req, err := http.NewRequest(http.MethodPost, r.URL, &gz)
		if err != nil {
			t.Fatal(err)
		}
		key = hex.EncodeToString(sum[:])
		for k, v := range map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip", "Ingest-Push-Contract": "1",
			"Traceparent": "00-" + trace + "-00f067aa0ba902b7-01", "Idempotency-Key": key} {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, key
	}
	if code, _ := send(killed, "11111111-2222-4333-8444-555555555555"); code != http.StatusOK {
		t.Fatalf("got %d for the first client's request, want 200", code)
	}
	r.Freeze() // the test kills that client here
	r.Thaw()
	r.ResetStats()
	code, key := send(killed, "66666666-7777-4888-8999-aaaaaaaaaaaa")
	if st := r.Stats(); code != http.StatusGone || st.Requests != 0 || st.Deletes != 0 || slices.Contains(r.Acked(), key) {
		t.Errorf("the killed client's request read after Thaw: got %d, %d counted, %d applied, acknowledged %v; want 410, none, none, false",
			code, st.Requests, st.Deletes, slices.Contains(r.Acked(), key))
	}
	code, key = send(next, "66666666-7777-4888-8999-aaaaaaaaaaaa")
	if st := r.Stats(); code != http.StatusOK || st.Requests != 1 || st.Deletes != 1 || st.ResentAfterAck != 0 || !slices.Contains(r.Acked(), key) {
		t.Errorf("the next client's request: got %d, stats %+v, acknowledged %v; want 200, one request applied, none resent, true",
			code, st, slices.Contains(r.Acked(), key))
	}
}
