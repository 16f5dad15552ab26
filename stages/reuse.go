package stages

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/reuse"
)

// How a run meets the work of earlier runs: the previous snapshot it reuses
// from, the journal of an interrupted run, and what it tells when it stops.

// Stopped is a run that stopped before publishing: nothing was published,
// and what the model servers had answered waits in the journal.
type Stopped struct {
	Err              error
	Documents        int // read and collected
	Headers, Vectors int // answered by model servers and journaled
	Journal          string
}

func (e *Stopped) Error() string {
	if e.Headers == 0 && e.Vectors == 0 {
		return e.Err.Error() + "; nothing published"
	}
	return fmt.Sprintf("%v; nothing published: %d documents read, %d headers and %d vectors from the model server journaled in %s, run again to resume",
		e.Err, e.Documents, e.Headers, e.Vectors, e.Journal)
}

func (e *Stopped) Unwrap() error { return e.Err }

// stopped adds to a run's error what it had finished, and where that work
// waits for the next run. Strict-mode failures are the corpus's, not a stop.
func (r *run) stopped(err error, t tally) error {
	if errors.Is(err, ErrStrict) || r.journal == nil {
		return err
	}
	h, v := r.journal.Appended()
	return &Stopped{Err: err, Documents: t.done, Headers: h, Vectors: v, Journal: r.target.Journal()}
}

// openJournal opens the run's journal: in its state folder, mirrored in
// the target's store when it keeps one (a bucket), so a run whose machine
// died resumes on another.
func (r *run) openJournal(ctx context.Context) (*reuse.Journal, error) {
	if m, ok := r.target.(reuse.Mirror); ok {
		return reuse.OpenMirroredJournal(ctx, r.target.Journal(), m)
	}
	return reuse.OpenJournal(r.target.Journal())
}

// openPrevious opens the snapshot to reuse from. One that cannot be trusted
// is reported and ignored; so is a latest that names no snapshot, which
// this run's publish replaces. Either way the newest of the target's other
// snapshots that can be trusted is reused instead (a heal then pays only
// for the chunks no intact snapshot holds).
func (r *run) openPrevious(ctx context.Context) {
	if err := r.target.CheckLatest(); err != nil {
		d := schema.Diagnostic{Path: r.target.String(), Severity: schema.SeverityWarning, Code: "latest-broken",
			Message: err.Error() + "; this run publishes a new latest"}
		r.setup = append(r.setup, d)
		r.rep.Diagnostic(d)
	}
	dir := r.target.Previous()
	var why error
	if dir != "" {
		p, err := reuse.OpenPrevious(ctx, dir)
		if err == nil {
			r.usePrevious(p)
			return
		}
		why = err
	}
	used := ""
	for _, older := range r.target.Fallbacks() {
		if p, err := reuse.OpenPrevious(ctx, older); err == nil { // else as untrusted as the previous one: the next
			r.usePrevious(p)
			used = older
			break
		}
	}
	if why != nil {
		d := schema.Diagnostic{Path: dir, Severity: schema.SeverityWarning, Code: "previous-ignored",
			Message: "previous snapshot not trusted, nothing reused: " + why.Error()}
		if used != "" {
			d.Message = "previous snapshot not trusted (" + why.Error() + "): reusing from " + used + " instead"
		}
		d.Ignored = r.cfg.Diagnostics.Ignores(d)
		r.setup = append(r.setup, d)
		r.rep.Diagnostic(d)
	}
}

func (r *run) usePrevious(p *reuse.Previous) {
	r.opt.Logger.Info("reusing headers and vectors from the previous snapshot", "previous", p.Dir)
	if !r.cfg.Shard.Whole() {
		p.Keep = r.cfg.Shard.Has // the other shards' documents are not gone: another part has them
	}
	r.prev = p
}

// reuseFor reads the previous snapshot up to the document at path. It runs
// on the submitting goroutine, in corpus order.
func (r *run) reuseFor(path string) (reuse.Offer, error) {
	if r.prev == nil {
		return reuse.Offer{}, nil
	}
	ru, gone, err := r.prev.ForDoc(path)
	if err != nil {
		return reuse.Offer{}, fmt.Errorf("previous snapshot %s: %w", r.prev.Dir, err)
	}
	r.audit.Supersede("", gone)
	if !r.prev.Lazy() {
		return ru, nil
	}
	if _, whole := r.unchanged(path, ru, false); !whole { // made again: its chunks reuse the vectors
		if err := r.prev.Fill(&ru); err != nil {
			return reuse.Offer{}, err
		}
	}
	return ru, nil
}
