package stamp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// A document that includes files has an input hash of its bytes and of
// theirs, and which files it includes depends on which paths exist: its
// stamp is its own and, beside it, the stamp of each path its includes
// were looked for at (With). Those paths are stat-ed, not read, to tell it
// unchanged (Same): make's dependency lists, with a stamp for a target.

// Absent is the stamp of a path where no file is: a file that appears there
// (an include found where it was not before) changes it.
const Absent Stamp = "-"

// A Dep is a path besides a document that the document's input hash
// depends on, with its stamp when the document's includes were read: an
// included file, or a path an include was looked for at, Absent. Path is
// slash-separated and relative to the corpus folder, or absolute when it is
// outside it (an includes.base).
type Dep struct {
	Path  string
	Stamp Stamp
}

// Bounds of a document's stamp with its Deps: past them (a page of many
// includes in a deep folder) it has none, and is read every time.
const (
	maxDeps  = 256
	maxBytes = 32 << 10
)

// With is the stamp of a document whose own stamp is own and whose input
// hash depends on deps: own alone when there are none. It is "" (none)
// when own or a dep's stamp is, or past the bounds.
func With(own Stamp, deps []Dep) Stamp {
	if own == "" || len(deps) == 0 {
		return own
	}
	if len(deps) > maxDeps {
		return ""
	}
	var b strings.Builder
	b.WriteString(string(own))
	for _, d := range deps {
		if d.Stamp == "" || d.Path == "" || strings.ContainsAny(d.Path, "\t\n\r") {
			return ""
		}
		b.WriteString("\t" + d.Path + "\t" + string(d.Stamp))
	}
	if b.Len() > maxBytes {
		return ""
	}
	return Stamp(b.String())
}

// Same reports whether known, a stamp With made, still holds of the
// document whose own stamp is now own, its paths' stamps read through
// paths: own is the one recorded, and every path beside it has its
// recorded stamp (an absent path is still absent).
func Same(known, own Stamp, paths *Paths, now time.Time) bool {
	if own == "" || known == "" {
		return false
	}
	f := strings.Split(string(known), "\t")
	if Stamp(f[0]) != own || len(f)%2 != 1 {
		return false
	}
	for i := 1; i < len(f); i += 2 {
		if st := paths.Of(f[i], now); st == "" || st != Stamp(f[i+1]) {
			return false
		}
	}
	return true
}

// Paths reads the stamps of the paths beside the documents of the corpus
// folder Root, each once while it is kept: the pages of a folder look for
// their includes at the same paths, and a site's snippets are included by
// many pages. Past maxKept paths it forgets them all and starts again. It
// is safe for concurrent use.
type Paths struct {
	Root string
	mu   sync.Mutex
	kept map[string]Stamp
}

const maxKept = 4096

// Of is the stamp of the path p as a Dep names it (relative to Root, or
// absolute), read at now the first time it is asked for.
func (ps *Paths) Of(p string, now time.Time) Stamp {
	ps.mu.Lock()
	st, ok := ps.kept[p]
	ps.mu.Unlock()
	if ok {
		return st
	}
	path := p
	if !filepath.IsAbs(p) {
		path = filepath.Join(ps.Root, filepath.FromSlash(p))
	}
	st = OfPath(path, now)
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.kept == nil || len(ps.kept) == maxKept {
		ps.kept = map[string]Stamp{}
	}
	ps.kept[p] = st
	return st
}

// OfPath is the stamp of the file at path, links followed: Absent where
// there is none, "" when it cannot be told (a path through a file, a
// folder that may not be read).
func OfPath(path string, now time.Time) Stamp {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Absent
	case err != nil:
		return ""
	}
	return Of(info, now)
}
