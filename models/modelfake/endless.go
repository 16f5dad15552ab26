package modelfake

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
)

// Endless is a hostile server: every answer is head, then item again and
// again until upTo bytes are sent (or the client goes); sent counts them,
// so a test can check a client stopped reading near its bound.
func Endless(head, item string, upTo int64) (srv *httptest.Server, sent *atomic.Int64) {
	sent = new(atomic.Int64)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, head)
		b := []byte(item)
		for sent.Load() < upTo {
			n, err := w.Write(b)
			sent.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	return srv, sent
}
