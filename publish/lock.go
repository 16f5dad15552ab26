package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/ocean-safety/ingest/artifacts"
)

// lockRetry is how often a waiting run tries the lock again: often enough
// to start soon after the holder ends, rare enough to cost nothing.
const lockRetry = 200 * time.Millisecond

// Lock is a target held by one run. The lock is an advisory file lock
// (flock on Unix, LockFileEx on Windows): the kernel releases it when the
// process ends, however it ends, so a crashed run never leaves it held.
type Lock struct {
	fl     *flock.Flock
	remote func() error // a remote's lease, given back by Release
	// Cleaned lists what crashed runs had left beside the target and this
	// run removed once it held the lock.
	Cleaned []string
	// Quarantined are the snapshots that had lost their manifest, moved
	// aside (never deleted) once the run held the lock: the run publishes
	// in their place.
	Quarantined []Quarantined
}

// LockedError is a target another run holds.
type LockedError struct {
	Target string
	Holder Holder // zero when the holder wrote nothing yet
	Note   string // what else the holder's record says (when its lease expires; that it cannot be read)
}

func (e *LockedError) Error() string {
	msg := e.Target + ": another ingest run is writing it"
	if e.Holder.PID != 0 {
		msg += " (" + e.Holder.String() + ")"
	}
	if e.Note != "" {
		msg += "; " + e.Note
	}
	return msg
}

// lockState takes the lock in t's state folder, trying for up to wait (0:
// once), records this process as its holder, and removes the temporary
// folders crashed runs of t left in parent (base: the name of t's folder
// there, "" for a publish folder). A lock another run holds is a
// *LockedError.
func lockState(ctx context.Context, t Target, wait time.Duration, parent, base string) (*Lock, error) {
	state := t.State()
	if err := os.MkdirAll(state, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", t, err)
	}
	fl := flock.New(filepath.Join(state, lockFile))
	ok, err := fl.TryLock()
	if err == nil && !ok && wait > 0 {
		wctx, cancel := context.WithTimeout(ctx, wait)
		ok, err = fl.TryLockContext(wctx, lockRetry)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", t, err)
	}
	if !ok {
		return nil, &LockedError{Target: t.String(), Holder: holder(state)}
	}
	b, _ := json.Marshal(Self())
	if err := artifacts.WriteFileSync(filepath.Join(state, holderFile), append(b, '\n')); err != nil {
		_ = fl.Unlock()
		return nil, fmt.Errorf("lock %s: %w", t, err)
	}
	l := &Lock{fl: fl}
	l.Cleaned, err = removeLeftovers(parent, base)
	if err != nil {
		_ = fl.Unlock()
		return nil, err
	}
	return l, nil
}

// Release ends the run's hold on the target.
func (l *Lock) Release() error {
	if l == nil {
		return nil
	}
	var err error
	if l.remote != nil {
		err = l.remote()
	}
	return errors.Join(err, l.fl.Unlock())
}

func holder(state string) Holder {
	var h Holder
	if b, err := os.ReadFile(filepath.Join(state, holderFile)); err == nil {
		_ = json.Unmarshal(b, &h)
	}
	return h
}

// removeLeftovers removes from parent, under the lock, the temporary
// folders earlier runs of a target made and did not get to remove (a kill
// -9, a power cut): staging folders, snapshots being pruned, latest links
// being replaced (see isLeftover for base). Only names the tool makes are
// touched.
func removeLeftovers(parent, base string) ([]string, error) {
	entries, err := os.ReadDir(parent)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("clean %s: %w", parent, err)
	}
	var removed []string
	for _, e := range entries {
		if !isLeftover(e.Name(), base) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(parent, e.Name())); err != nil {
			return removed, fmt.Errorf("clean %s: %w", parent, err)
		}
		removed = append(removed, e.Name())
	}
	return removed, nil
}

// isLeftover recognises a temporary name a run of this tool makes: for an
// --out target named base, ".base.tmp-*" (and its ".old" twin); in a
// publish folder (base ""), ".publish-*", ".latest.tmp-*" and
// ".NAME.prune-*".
func isLeftover(name, base string) bool {
	if base != "" {
		return strings.HasPrefix(name, "."+base+tmpInfix)
	}
	return strings.HasPrefix(name, publishPrefix) || strings.HasPrefix(name, "."+LatestLink+tmpInfix) ||
		strings.HasPrefix(name, ".") && strings.Contains(name, pruneInfix)
}
