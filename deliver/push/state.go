package push

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/gofrs/flock"

	"github.com/ocean-safety/ingest/deliver"
)

// A push's state folder holds, per destination, tenant and source label:
//   - state.json: what the destination holds after the last complete push
//     (its document versions and their digests), written atomically;
//   - journal.jsonl: every request acknowledged since, one line each,
//     synced before the next is counted: a killed push resumes from it;
//   - audit.jsonl: the audit records of every push, appended;
//   - lock: held while a push runs.
const (
	stateFile   = "state.json"
	journalFile = "journal.jsonl"
	auditFile   = "audit.jsonl"
	lockFile    = "lock"
)

// State is state.json.
type State struct {
	Contract    int                 `json:"contract"`
	Destination string              `json:"destination"` // credentials removed
	Tenant      string              `json:"tenant"`
	SourceLabel string              `json:"source_label"`
	Snapshot    deliver.SnapshotRef `json:"snapshot"` // the last snapshot pushed whole
	PushedAt    string              `json:"pushed_at"`
	// Documents are the versions the destination holds: doc id → version
	// id → what was sent.
	Documents map[string]map[string]Version `json:"documents"`
}

// Version is a document version the destination holds.
type Version struct {
	DocPath string `json:"doc_path"`
	Digest  string `json:"digest"` // SHA-256 of its context and chunks as sent
	Chunks  int    `json:"chunks"`
}

// partRef is a part of a version in the journal.
type partRef struct {
	DocID     string `json:"doc_id"`
	VersionID string `json:"version_id"`
	DocPath   string `json:"doc_path"`
	Digest    string `json:"digest"`
	Index     int    `json:"index"`
	Count     int    `json:"count"`
	Chunks    int    `json:"chunks"` // the version's, in all parts
	// Hashes are the content_hash (SHA-256 of the text) of the part's
	// chunks, for the audit record of the version.
	Hashes []string `json:"chunk_sha256"`
}

// key is a part without its hashes: what identifies it.
func (p partRef) key() partKey {
	return partKey{p.DocID, p.VersionID, p.Digest, p.Index, p.Count}
}

type partKey struct {
	doc, version, digest string
	index, count         int
}

// journalLine is one line of journal.jsonl: a request the destination
// accepted (202, with its task) or acknowledged as done.
type journalLine struct {
	Key     string      `json:"key"`
	Event   string      `json:"event"` // accepted | done | failed | lost
	Task    string      `json:"task,omitempty"`
	Op      string      `json:"op"`
	Parts   []partRef   `json:"parts,omitempty"`
	Deletes []deleteRef `json:"deletes,omitempty"`
}

type deleteRef struct {
	DocID     string `json:"doc_id"`
	VersionID string `json:"version_id"`
	DocPath   string `json:"doc_path"`
	Reason    string `json:"reason"`
	Chunks    int    `json:"chunks"`
}

const (
	eventAccepted = "accepted"
	eventDone     = "done"
	eventFailed   = "failed"
	eventLost     = "lost" // its task is unknown to the destination: sent again
)

// folder is an open state folder, locked.
type folder struct {
	dir     string
	lock    *flock.Flock
	journal *os.File
}

// openFolder creates and locks the state folder. Another push holding it
// is an error: two pushes to one destination would interleave journals.
func openFolder(dir string) (*folder, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("push state %s: %w", dir, err)
	}
	fl := flock.New(filepath.Join(dir, lockFile))
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("push state %s: %w", dir, err)
	}
	if !ok {
		return nil, fmt.Errorf("push state %s: another push to this destination is running", dir)
	}
	return &folder{dir: dir, lock: fl}, nil
}

func (f *folder) close() error {
	var err error
	if f.journal != nil {
		err = f.journal.Close()
	}
	return errors.Join(err, f.lock.Unlock())
}

// readState reads state.json; nil when the destination was never pushed
// to. A state that cannot be read as one (empty, cut short, not JSON, no
// destination) is no reason to stop every later push: it is nil too, with
// a warning, and the push sends the whole snapshot again, which the
// receiver applies as it would a resend. A real push moves it aside
// (state.json.broken-<time>), never deletes it.
func (f *folder) readState(dry bool) (*State, string, error) {
	path := filepath.Join(f.dir, stateFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("push state: %w", err)
	}
	var s State
	err = json.Unmarshal(b, &s)
	if err == nil && (s.Contract != Contract || s.Destination == "" || s.Tenant == "") {
		err = fmt.Errorf("not a contract %d push state (contract %d, destination %q, tenant %q)", Contract, s.Contract, s.Destination, s.Tenant)
	}
	if err == nil {
		return &s, "", nil
	}
	warn := fmt.Sprintf("push state %s is unreadable (%v): every version of the snapshot is sent again; "+
		"versions the destination holds that the snapshot lacks are not known, and not deleted", path, err)
	if dry {
		return nil, warn, nil
	}
	aside := path + ".broken-" + time.Now().UTC().Format("20060102T150405Z")
	if err := os.Rename(path, aside); err != nil {
		return nil, "", fmt.Errorf("push state %s: move it aside: %w", path, err)
	}
	return nil, warn + " (the file is kept as " + filepath.Base(aside) + ")", nil
}

// readJournal reads journal.jsonl. A last line cut short (a kill in the
// middle of a write) is dropped; a bad line before the last is skipped
// with a warning naming it: at worst its request is sent again, which its
// idempotency key makes safe, where an error would stop every later push.
func (f *folder) readJournal() ([]journalLine, []string, error) {
	path := filepath.Join(f.dir, journalFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("push journal: %w", err)
	}
	lines := bytes.Split(b, []byte{'\n'})
	var out []journalLine
	var warns []string
	for i, raw := range lines {
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var l journalLine
		if err := json.Unmarshal(raw, &l); err != nil || l.Key == "" {
			if i == len(lines)-1 {
				break // the last line, cut short by a kill: its request was never known acknowledged
			}
			warns = append(warns, fmt.Sprintf("%s:%d: not a journal line: skipped (its request is sent again if needed)", path, i+1))
			continue
		}
		out = append(out, l)
	}
	return out, warns, nil
}

// appendJournal writes one line and syncs it: once this returns, the
// request is known acknowledged to every later run.
func (f *folder) appendJournal(l journalLine) error {
	if f.journal == nil {
		j, err := os.OpenFile(filepath.Join(f.dir, journalFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("push journal: %w", err)
		}
		f.journal = j
	}
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if _, err := f.journal.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("push journal: %w", err)
	}
	if err := f.journal.Sync(); err != nil {
		return fmt.Errorf("push journal: %w", err)
	}
	return nil
}

// commit writes state.json (temporary name, sync, rename, sync the
// folder), then removes the journal it now holds: a kill between the two
// replays the journal onto the new state, which changes nothing.
func (f *folder) commit(s *State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(f.dir, "."+stateFile+".tmp")
	if err := writeSynced(tmp, append(b, '\n')); err != nil {
		return fmt.Errorf("push state: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(f.dir, stateFile)); err != nil {
		return fmt.Errorf("push state: %w", err)
	}
	if err := syncDir(f.dir); err != nil {
		return fmt.Errorf("push state: %w", err)
	}
	if f.journal != nil {
		f.journal.Close()
		f.journal = nil
	}
	if err := os.Remove(filepath.Join(f.dir, journalFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("push journal: %w", err)
	}
	return syncDir(f.dir)
}

func writeSynced(path string, b []byte) error {
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := fh.Write(b); err != nil {
		fh.Close()
		return err
	}
	if err := fh.Sync(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// syncDir makes a rename in dir durable (a no-op where folders cannot be
// opened for it).
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err // EINVAL: a file system that cannot sync a folder; the rename stands
	}
	return nil
}

// holdings is what the destination holds as the push sees it: the state's
// versions with the journal's acknowledgements applied, and the parts of
// versions not yet whole that it has acknowledged or accepted.
type holdings struct {
	versions map[string]map[string]Version // doc id → version id → version
	acked    map[partKey]partRef           // parts done
	pending  []journalLine                 // accepted, not yet done: their tasks are polled first
	inTask   map[partKey]bool              // parts of pending tasks
	delTask  map[[2]string]bool            // deletes of pending tasks
	// journaled are the versions made whole by the journal's requests:
	// what an unfinished push already sent (--full skips them too).
	journaled map[partKey]bool // index and count zero
}

// replay applies the journal to the state's versions.
func replay(st *State, lines []journalLine) *holdings {
	h := &holdings{versions: map[string]map[string]Version{}, acked: map[partKey]partRef{}, inTask: map[partKey]bool{},
		delTask: map[[2]string]bool{}, journaled: map[partKey]bool{}}
	if st != nil {
		for doc, vs := range st.Documents {
			h.versions[doc] = map[string]Version{}
			for v, x := range vs {
				h.versions[doc][v] = x
			}
		}
	}
	accepted := map[string]journalLine{}
	var order []string
	for _, l := range lines {
		switch l.Event {
		case eventAccepted:
			if _, ok := accepted[l.Key]; !ok {
				order = append(order, l.Key)
			}
			accepted[l.Key] = l
		case eventFailed, eventLost:
			delete(accepted, l.Key)
		case eventDone:
			if a, ok := accepted[l.Key]; ok && len(l.Parts)+len(l.Deletes) == 0 {
				l.Parts, l.Deletes, l.Op = a.Parts, a.Deletes, a.Op
			}
			delete(accepted, l.Key)
			for _, v := range h.apply(l) {
				h.journaled[partKey{doc: v.DocID, version: v.VersionID, digest: v.Digest}] = true
			}
		}
	}
	for _, k := range order {
		if l, ok := accepted[k]; ok {
			h.pending = append(h.pending, l)
			for _, p := range l.Parts {
				h.inTask[p.key()] = true
			}
			for _, d := range l.Deletes {
				h.delTask[[2]string{d.DocID, d.VersionID}] = true
			}
		}
	}
	return h
}

// apply records a request done: its parts (a version whose every part is
// done is held: apply returns it, with every chunk's hash), or its deletes.
func (h *holdings) apply(l journalLine) []partRef {
	var whole []partRef
	for _, p := range l.Parts {
		h.acked[p.key()] = p
		v := p
		v.Index, v.Hashes = 0, nil
		for i := 0; i < p.Count; i++ {
			k := p.key()
			k.index = i
			q, ok := h.acked[k]
			if !ok {
				v.Hashes = nil
				break
			}
			v.Hashes = append(v.Hashes, q.Hashes...)
		}
		if len(v.Hashes) != p.Chunks {
			continue
		}
		if h.versions[p.DocID] == nil {
			h.versions[p.DocID] = map[string]Version{}
		}
		h.versions[p.DocID][p.VersionID] = Version{DocPath: p.DocPath, Digest: p.Digest, Chunks: p.Chunks}
		whole = append(whole, v)
	}
	for _, d := range l.Deletes {
		delete(h.versions[d.DocID], d.VersionID)
		if len(h.versions[d.DocID]) == 0 {
			delete(h.versions, d.DocID)
		}
	}
	return whole
}
