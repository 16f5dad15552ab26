package push

import (
	"bytes"
	"fmt"
	"io"
)

// The plan and the report as ingest push prints them: each written whole,
// in one Write.

// WriteText writes what a push would send, and that it sent nothing.
func (p *Plan) WriteText(w io.Writer) error {
	var b bytes.Buffer
	p.write(&b, "plan: push")
	fmt.Fprintln(&b, "nothing sent (--plan)")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteText writes what a push sent.
func (r *Report) WriteText(w io.Writer) error {
	var b bytes.Buffer
	r.write(&b, "push")
	fmt.Fprintf(&b, "pushed in %.2fs: %d requests (%d retries), %d polls, %d bytes; trace %s\n",
		r.Seconds, r.Sent.Requests, r.Sent.Retries, r.Sent.Polls, r.Sent.Bytes, r.TraceID)
	_, err := w.Write(b.Bytes())
	return err
}

// write writes a push's plan, under verb.
func (p *Plan) write(b *bytes.Buffer, verb string) {
	s := p.Snapshot
	fmt.Fprintf(b, "%s %s (%d documents, %d chunks, %s %d dims)\n  to %s, tenant %s, source %s\n  state: %s\n",
		verb, s.Name, s.Documents, s.Rows, s.Embedder, s.Dims, p.Destination, p.Tenant, p.SourceLabel, p.State)
	if p.Last == nil {
		fmt.Fprintln(b, "  last push: never")
	} else {
		fmt.Fprintf(b, "  last push: %s (%d documents), %s\n", p.Last.Snapshot, p.Last.Documents, p.Last.PushedAt)
	}
	d := p.Documents
	fmt.Fprintf(b, "  documents: %d added, %d changed, %d regenerated, %d resent, %d removed, %d unchanged\n",
		d.Added, d.Changed, d.Regenerated, d.Resent, d.Removed, d.Unchanged)
	if r := p.Resume; r.Skipped+r.Tasks > 0 {
		fmt.Fprintf(b, "  resumed: %d parts acknowledged before (not sent again), %d tasks polled\n", r.Skipped, r.Tasks)
	}
	if p.Resume.Lost > 0 {
		fmt.Fprintf(b, "  lost: %d tasks the destination no longer knew, their requests sent again\n", p.Resume.Lost)
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(b, "  warning: %s\n", w)
	}
	fmt.Fprintf(b, "  send: %d chunks in %d upsert requests; delete %d versions (%d of removed documents, %d superseded) in %d requests; %d bytes gzip\n",
		p.Chunks, p.Requests.Upsert, p.Deletes.Removed+p.Deletes.Superseded, p.Deletes.Removed, p.Deletes.Superseded, p.Requests.Delete, p.Bytes)
}
