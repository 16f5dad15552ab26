package stages

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/snapshot"
)

// How a run meets the work of earlier runs: the previous snapshot it reuses
// from, the journal of an interrupted run, and what it tells when it stops.

// stopped adds to a run's error what it had finished, and where that work
// waits for the next run. Strict-mode failures are the corpus's, not a stop.
func (r *run) stopped(err error, t tally) error {
	if errors.Is(err, ErrStrict) || r.journal == nil {
		return err
	}
	h, v := r.journal.Appended()
	if h == 0 && v == 0 {
		return err
	}
	return fmt.Errorf("%w; nothing published: %d documents read, %d headers and %d vectors from the model server journaled in %s, run again to resume",
		err, t.done, h, v, r.target.Journal())
}

// openPrevious opens the snapshot to reuse from. One that cannot be trusted
// is reported and ignored.
func (r *run) openPrevious(ctx context.Context) {
	dir := r.target.Previous()
	if dir == "" {
		return // a first run
	}
	p, err := snapshot.Open(ctx, dir)
	if err != nil {
		d := schema.Diagnostic{Path: dir, Severity: schema.SeverityWarning, Code: "previous-ignored",
			Message: "previous snapshot not trusted, nothing reused: " + err.Error()}
		r.setup = append(r.setup, d)
		r.rep.Diagnostic(d)
		return
	}
	r.prev = p
}

// reuseFor reads the previous snapshot up to the document at path. It runs
// on the submitting goroutine, in corpus order.
func (r *run) reuseFor(path string) (snapshot.Reuse, error) {
	if r.prev == nil {
		return snapshot.Reuse{}, nil
	}
	ru, gone, err := r.prev.ForDoc(path)
	if err != nil {
		return snapshot.Reuse{}, fmt.Errorf("previous snapshot %s: %w", r.prev.Dir, err)
	}
	r.audit.Supersede("", gone)
	return ru, nil
}

func (r *run) journalHeader(key string) (snapshot.Enrichment, bool) {
	if r.journal == nil || !r.journalHeaders {
		return snapshot.Enrichment{}, false
	}
	return r.journal.Header(key)
}

func (r *run) journalVector(key string) ([]float32, bool) {
	if r.journal == nil || !r.journalVectors {
		return nil, false
	}
	return r.journal.Vector(key, r.embed.Dims())
}

func (r *run) journalPutHeader(key string, e snapshot.Enrichment) error {
	if r.journal == nil || !r.journalHeaders {
		return nil
	}
	return r.journal.PutHeader(key, e)
}

func (r *run) journalPutVector(key string, v []float32) error {
	if r.journal == nil || !r.journalVectors {
		return nil
	}
	return r.journal.PutVector(key, v)
}
