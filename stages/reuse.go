package stages

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// How a run meets the work of earlier runs: the previous snapshot it reuses
// from, the journal of an interrupted run, and what it tells when it stops.

// stopped adds to a run's error what it had finished, and where that work
// waits for the next run. Strict-mode failures are the corpus's, not a stop.
func (r *run) stopped(err error) error {
	if errors.Is(err, ErrStrict) {
		return err
	}
	h, e := r.calls.headerCalls.Load(), r.calls.embedCalls.Load()
	if (h == 0 && e == 0) || (!r.journalHeaders && !r.journalVectors) {
		return err
	}
	return fmt.Errorf("%w; nothing published: %d documents read, %d header and %d embedding calls finished and journaled in %s, run again to resume",
		err, r.docsDone, h, e, journalPath(r.cfg.Out))
}

// openPrevious opens the snapshot to reuse from: --prev, else the one
// already at --out. One that cannot be trusted is reported and ignored.
func (r *run) openPrevious(ctx context.Context) {
	dir := r.cfg.Prev
	if dir == "" {
		dir = r.cfg.Out
		if _, err := os.Stat(filepath.Join(dir, artifacts.ManifestFile)); err != nil {
			return // no snapshot there yet: a first run
		}
	}
	p, err := openPrevious(ctx, dir)
	if err != nil {
		d := schema.Diagnostic{Path: dir, Severity: schema.SeverityWarning, Code: "previous-ignored",
			Message: "previous snapshot not trusted, nothing reused: " + err.Error()}
		r.diags = append(r.diags, d)
		r.problems++
		r.rep.Diagnostic(d)
		return
	}
	r.prev = p
}

// reuseFor reads the previous snapshot up to the document at path. It runs
// on the submitting goroutine, in corpus order.
func (r *run) reuseFor(path string) (reuse, error) {
	if r.prev == nil {
		return reuse{}, nil
	}
	ru, gone, err := r.prev.forDoc(path)
	if err != nil {
		return reuse{}, fmt.Errorf("previous snapshot %s: %w", r.prev.dir, err)
	}
	r.audit.supersede("", gone)
	return ru, nil
}

func (r *run) supersede(path string, ids []string) { r.audit.supersede(DocID(path), ids) }

func (r *run) journalHeader(key string) (headerEntry, bool) {
	if r.journal == nil || !r.journalHeaders {
		return headerEntry{}, false
	}
	return r.journal.header(key)
}

func (r *run) journalVector(key string) ([]float32, bool) {
	if r.journal == nil || !r.journalVectors {
		return nil, false
	}
	return r.journal.vector(key, r.embed.Dims())
}

func (r *run) journalPutHeader(key string, e headerEntry) error {
	if r.journal == nil || !r.journalHeaders {
		return nil
	}
	return r.journal.putHeader(key, e)
}

func (r *run) journalPutVector(key string, v []float32) error {
	if r.journal == nil || !r.journalVectors {
		return nil
	}
	return r.journal.putVector(key, v)
}

// journalPath is where a run checkpoints its paid-for results: beside the
// output, so it survives the staging folder being discarded.
func journalPath(out string) string {
	out = filepath.Clean(out)
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".journal.jsonl")
}

// offline reports whether x is one of the free, deterministic defaults,
// whose results are not worth journaling.
func offline(x any) bool {
	switch x.(type) {
	case *Extractive, *Builtin:
		return true
	}
	return false
}
