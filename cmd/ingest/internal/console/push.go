package console

import (
	"fmt"
	"io"

	"github.com/ocean-safety/ingest/deliver/push"
)

// PrintPushPlan prints what a push would send, and that it sent nothing.
func PrintPushPlan(w io.Writer, p *push.Plan) {
	printPush(w, "plan: push", p)
	fmt.Fprintln(w, "nothing sent (--plan)")
}

// PrintPushReport prints what a push sent.
func PrintPushReport(w io.Writer, rep *push.Report) {
	printPush(w, "push", &rep.Plan)
	fmt.Fprintf(w, "pushed in %.2fs: %d requests (%d retries), %d polls, %d bytes; trace %s\n",
		rep.Seconds, rep.Sent.Requests, rep.Sent.Retries, rep.Sent.Polls, rep.Sent.Bytes, rep.TraceID)
}

// printPush prints a push's plan, under verb.
func printPush(w io.Writer, verb string, p *push.Plan) {
	s := p.Snapshot
	fmt.Fprintf(w, "%s %s (%d documents, %d chunks, %s %d dims)\n  to %s, tenant %s, source %s\n  state: %s\n",
		verb, s.Name, s.Documents, s.Rows, s.Embedder, s.Dims, p.Destination, p.Tenant, p.SourceLabel, p.State)
	if p.Last == nil {
		fmt.Fprintln(w, "  last push: never")
	} else {
		fmt.Fprintf(w, "  last push: %s (%d documents), %s\n", p.Last.Snapshot, p.Last.Documents, p.Last.PushedAt)
	}
	d := p.Documents
	fmt.Fprintf(w, "  documents: %d added, %d changed, %d regenerated, %d resent, %d removed, %d unchanged\n",
		d.Added, d.Changed, d.Regenerated, d.Resent, d.Removed, d.Unchanged)
	if r := p.Resume; r.Skipped+r.Tasks > 0 {
		fmt.Fprintf(w, "  resumed: %d parts acknowledged before (not sent again), %d tasks polled\n", r.Skipped, r.Tasks)
	}
	fmt.Fprintf(w, "  send: %d chunks in %d upsert requests; delete %d versions (%d of removed documents, %d superseded) in %d requests; %d bytes gzip\n",
		p.Chunks, p.Requests.Upsert, p.Deletes.Removed+p.Deletes.Superseded, p.Deletes.Removed, p.Deletes.Superseded, p.Requests.Delete, p.Bytes)
}
