// Command push-receiver runs the reference receiver of ingest push's
// contract (docs/push.md, package deliver/push/receiver) as a server to try
// a push against, or to test an endpoint of one's own by comparison:
//
//	go run ./cmd/push-receiver -addr 127.0.0.1:8787
//	ingest push --snapshot out/knowledge --to http://127.0.0.1:8787/ingest --tenant $TENANT
//	curl http://127.0.0.1:8787/          # what it holds: counts, then a line a chunk
//
// It checks every request against docs/push.schema.json and the
// contract's headers (read from this source tree), stores the document
// versions it is sent, in memory, as a knowledge service would, logs a
// line a request, and prints what it holds when stopped (Ctrl-C). It is a
// development tool: never linked into ingest, never a production server.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/ocean-safety/ingest/deliver/push/receiver"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8787", "address to listen on (host:port; port 0 picks a free one)")
	token := flag.String("token", "", "the bearer token every request must carry (default: none asked)")
	async := flag.Int("async-every", 0, "answer every n-th new request 202 with a task to poll (0: never)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, *addr, receiver.Options{Token: *token, AsyncEvery: *async, TaskPolls: 1}, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "push-receiver:", err)
		os.Exit(1)
	}
}

// serve runs a receiver on addr until ctx ends, logging to out a line when
// it listens, a line a request, and what it holds at the end.
func serve(ctx context.Context, addr string, opt receiver.Options, out io.Writer) error {
	var mu sync.Mutex // out is written by the handlers and by serve
	say := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format+"\n", a...)
	}
	opt.OnArrive = func(n int, r *receiver.Request) bool {
		docs := strings.Join(r.Docs, " ")
		if len(docs) > 200 {
			docs = docs[:200] + "…"
		}
		say("#%d %s %s %s", n, r.Op, r.Key[:min(12, len(r.Key))], docs)
		return false
	}
	rcv, err := receiver.New(opt)
	if err != nil {
		return err
	}
	defer rcv.Close() // its own loopback listener, unused: the handler is served on addr
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(receiver.Path, rcv.Config.Handler)
	mux.Handle("/tasks/", rcv.Config.Handler)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { show(w, rcv) })
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(rcv.Stats())
	})
	srv := &http.Server{Handler: mux}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	base := "http://" + l.Addr().String()
	say("push receiver: push to %s%s; what it holds: %s/ (and %s/stats)", base, receiver.Path, base, base)
	if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	show(out, rcv)
	return nil
}

// show writes what the receiver holds: its counts and requests, then a
// line a stored chunk.
func show(w io.Writer, rcv *receiver.Receiver) {
	c, s := rcv.Counts(), rcv.Stats()
	fmt.Fprintf(w, "%d documents, %d versions, %d chunks; %d requests (%d upserts, %d deletes, %d replays), %d invalid\n",
		c.Documents, c.Versions, c.Rows, s.Requests, s.Upserts, s.Deletes, s.Replays, len(s.Invalid))
	for _, inv := range s.Invalid {
		fmt.Fprintf(w, "invalid: %s\n", inv)
	}
	for _, r := range rcv.Dump() {
		fmt.Fprintln(w, r)
	}
}
