package reuse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Mirror keeps a copy of a journal away from the machine (a bucket: see
// bucket.Store), so a run that dies with its machine, as a Kubernetes pod
// does with its emptyDir, resumes elsewhere from every answer it had
// journaled. The copy is a sequence of pieces, each a run of whole lines.
type Mirror interface {
	// ReadJournal writes the pieces to w, in order, and says how many.
	ReadJournal(ctx context.Context, w io.Writer) (int, error)
	// AppendJournal stores the n-th piece.
	AppendJournal(ctx context.Context, n int, piece []byte) error
	// RemoveJournal deletes the pieces.
	RemoveJournal(ctx context.Context) error
}

// mirrorTimeout bounds one call to the mirror: a store that stalls fails
// the run instead of holding it.
const mirrorTimeout = 2 * time.Minute

// mirrored is a journal's mirror and how far the file is in it.
type mirrored struct {
	m      Mirror
	mu     sync.Mutex // held while a piece is stored: one at a time, in order
	synced int64      // bytes of the file the mirror holds
	pieces int
}

// OpenMirroredJournal opens the journal at path and keeps m in step with it:
// an append returns once its line is in the mirror (appends that arrive
// while a piece is stored go together in the next piece). When the file is
// absent or empty (a new machine), the mirror's pieces fill it first; a
// file of its own (the same machine) goes to the mirror whole, as the next
// piece, so the mirror holds all the file does.
func OpenMirroredJournal(ctx context.Context, path string, m Mirror) (*Journal, error) {
	pieces, filled, err := fillFromMirror(ctx, path, m)
	if err != nil {
		return nil, err
	}
	j, err := OpenJournal(path)
	if err != nil {
		return nil, err
	}
	j.mirror = &mirrored{m: m, pieces: pieces}
	if filled {
		j.mirror.synced = j.end // the file is what the mirror holds
		return j, nil
	}
	if err := j.mirror.sync(j, j.end); err != nil {
		j.f.Close()
		return nil, err
	}
	return j, nil
}

// fillFromMirror writes the mirror's pieces into the journal file when it
// has no lines of its own (filled), and returns how many pieces the mirror
// has.
func fillFromMirror(ctx context.Context, path string, m Mirror) (pieces int, filled bool, err error) {
	if info, err := os.Stat(path); err == nil && info.Size() > 0 {
		n, err := m.ReadJournal(ctx, io.Discard)
		if err != nil {
			return 0, false, fmt.Errorf("journal mirror: %w", err)
		}
		return n, false, nil
	}
	tmp := path + ".mirror"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, false, fmt.Errorf("journal: %w", err)
	}
	f, err := os.Create(tmp)
	if err != nil {
		return 0, false, fmt.Errorf("journal: %w", err)
	}
	n, err := m.ReadJournal(ctx, f)
	err = errors.Join(err, f.Sync(), f.Close())
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, false, fmt.Errorf("journal mirror: %w", err)
	}
	return n, true, nil
}

// sync stores the file's lines up to end that the mirror lacks, as one
// piece. A nil mirror is the file alone.
func (mr *mirrored) sync(j *Journal, end int64) error {
	if mr == nil {
		return nil
	}
	mr.mu.Lock()
	defer mr.mu.Unlock()
	if mr.synced >= end {
		return nil // another append's piece carried this line
	}
	j.mu.Lock()
	upto := j.end
	j.mu.Unlock()
	piece := make([]byte, upto-mr.synced)
	if _, err := j.f.ReadAt(piece, mr.synced); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), mirrorTimeout)
	defer cancel()
	if err := mr.m.AppendJournal(ctx, mr.pieces, piece); err != nil {
		return fmt.Errorf("journal mirror: %w", err)
	}
	mr.pieces++
	mr.synced = upto
	return nil
}
