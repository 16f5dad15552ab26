package include

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/corpus/stamp"
	"github.com/ocean-safety/ingest/schema"
)

// Bounds of what one document may take in.
const (
	MaxFileBytes  = 1 << 20 // an included file: a source listing, not a data set
	MaxTotalBytes = 8 << 20 // all a document includes: the corpus's own document limit is of this order
	MaxDepth      = 8       // includes inside included Markdown: a site nests two or three
)

// Unresolved is the code of an include that could not be read: the
// document's input hash does not cover the file it names, so a document
// with one is always made again (a file that appears later changes it; its
// stamp, which holds the paths looked at, tells when one does).
const Unresolved = "include-unresolved"

// Resolver reads included files from inside its roots. What it opens it
// keeps (seen): a site's snippets are included by many pages, near one
// another in corpus order, and a run reads each page twice (its input
// hash, then its text), so a file is resolved, read and hashed once while
// the pages that include it go by. It is safe for concurrent use.
type Resolver struct {
	roots []string         // absolute, symbolic links resolved: the corpus first
	now   func() time.Time // the clock stamps are read by
	mu    sync.Mutex
	seen  map[string]opened // by candidate path, found or not
	held  int               // the bytes of text seen holds
}

// opened is what open gave for a candidate path.
type opened struct {
	file  File
	text  string
	stamp stamp.Stamp // read before the bytes; stamp.Absent when there is no file
	err   error
}

// The bounds of what a Resolver keeps: past either it forgets all it kept
// and starts again, so its memory stays small however many files a corpus
// includes, and what it keeps is what the pages at hand include.
const (
	maxSeen     = 2048
	maxSeenText = 2 << 20
)

// New is a resolver for the corpus at root that also reads from bases
// (absolute, or relative to the corpus folder). A base that does not exist
// is an error: a mistyped folder fails at start, not as a diagnostic on
// every page.
func New(root string, bases []string) (*Resolver, error) {
	r := &Resolver{now: time.Now}
	for i, b := range append([]string{root}, bases...) {
		if i > 0 && !filepath.IsAbs(b) {
			b = filepath.Join(root, b)
		}
		real, err := filepath.EvalSymlinks(b)
		if err == nil {
			real, err = filepath.Abs(real)
		}
		if err != nil {
			return nil, fmt.Errorf("includes.base %s: %w", b, err)
		}
		r.roots = append(r.roots, real)
	}
	return r, nil
}

// File is a file a document included.
type File struct {
	Path   string // as the directive named it, resolved: relative to the root it is in
	SHA256 string // of its bytes
}

// Span is where an included file's text sits in the expanded text.
type Span struct {
	Start, End int
	Path       string
}

// Result is a document's text with its includes expanded.
type Result struct {
	Text  string
	Files []File // each file once, in the order first included
	Spans []Span
	Diags []schema.Diagnostic
	// Deps are the paths the includes were looked for at, each once, in
	// the order first looked at, with their stamps when they were: the
	// files found and the paths where none was (stamp.With).
	Deps []stamp.Dep
}

// errOutside is a path that leaves the roots.
var errOutside = errors.New("outside the corpus and includes.base")

// read resolves name, as the directive at doc (a corpus-relative path)
// wrote it, and reads it: tried beside the document, then in each folder
// above it up to the corpus root (a site's project folder: FastAPI's
// "../../docs_src" is relative to docs/en), then in each base, then (hugo)
// in the _includes folder of each of those folders. Each path it looks at
// is handed to dep with its stamp.
func (r *Resolver) read(doc, name string, hugo bool, dep func(stamp.Dep)) (File, string, error) {
	if strings.Contains(name, "://") {
		return File{}, "", errors.New("a URL: ingest reads no network")
	}
	if filepath.IsAbs(name) || path.IsAbs(name) {
		return File{}, "", fmt.Errorf("an absolute path: %w", errOutside)
	}
	var dirs []string
	for d := path.Dir(doc); ; d = path.Dir(d) {
		dirs = append(dirs, filepath.Join(r.roots[0], filepath.FromSlash(d)))
		if d == "." || d == "/" {
			break
		}
	}
	dirs = append(dirs, r.roots[1:]...)
	var outside error
	for _, d := range dirs {
		cands := []string{filepath.Join(d, filepath.FromSlash(name))}
		if hugo {
			cands = append(cands, filepath.Join(d, "_includes", filepath.FromSlash(name)))
		}
		for _, c := range cands {
			f, text, st, err := r.open(c)
			dep(stamp.Dep{Path: r.depPath(c), Stamp: st})
			if err == nil {
				return f, text, nil
			}
			if !errors.Is(err, fs.ErrNotExist) && outside == nil {
				outside = err // the file is there and cannot be taken: say why
			}
		}
	}
	if outside != nil {
		return File{}, "", outside
	}
	return File{}, "", errors.New("no such file")
}

// open is openFile of c, kept in seen.
func (r *Resolver) open(c string) (File, string, stamp.Stamp, error) {
	r.mu.Lock()
	o, ok := r.seen[c]
	r.mu.Unlock()
	if ok {
		return o.file, o.text, o.stamp, o.err
	}
	f, text, st, err := r.openFile(c)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.seen) == maxSeen || r.held+len(text) > maxSeenText {
		r.seen, r.held = nil, 0
	}
	if r.seen == nil {
		r.seen = map[string]opened{}
	}
	r.seen[c] = opened{f, text, st, err}
	r.held += len(text)
	return f, text, st, err
}

// openFile reads the candidate c if it is a regular file inside a root,
// once its symbolic links are resolved, and within MaxFileBytes. Its stamp
// is read first, found or not: stamp.Absent where no file is, "" when that
// cannot be told.
func (r *Resolver) openFile(c string) (File, string, stamp.Stamp, error) {
	real, err := filepath.EvalSymlinks(c)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{}, "", stamp.Absent, err
		}
		return File{}, "", "", err
	}
	info, err := os.Stat(real)
	if err != nil {
		return File{}, "", "", err
	}
	st := stamp.Of(info, r.now())
	rel, ok := r.within(real)
	switch {
	case !ok:
		return File{}, "", st, errOutside
	case !info.Mode().IsRegular():
		return File{}, "", st, errors.New("not a regular file")
	case info.Size() > MaxFileBytes:
		return File{}, "", st, fmt.Errorf("%d bytes, over the %d an include may hold", info.Size(), MaxFileBytes)
	}
	b, err := os.ReadFile(real)
	if err != nil {
		return File{}, "", "", err
	}
	if !utf8.Valid(b) || strings.IndexByte(string(b), 0) >= 0 {
		return File{}, "", st, errors.New("not UTF-8 text")
	}
	sum := sha256.Sum256(b)
	text := strings.ReplaceAll(strings.TrimPrefix(string(b), "\ufeff"), "\r\n", "\n")
	return File{Path: rel, SHA256: hex.EncodeToString(sum[:])}, text, st, nil
}

// depPath is the candidate path c as a stamp.Dep names it: relative to the
// corpus folder when inside it, else absolute.
func (r *Resolver) depPath(c string) string {
	if rel, ok := inside(r.roots[0], c); ok {
		return rel
	}
	return c
}

// inside is p's slash-separated path relative to root, when p lies in it.
func inside(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// within is real's path relative to the root it lies in (slash-separated,
// the root's own name first for a base), and whether it lies in one.
func (r *Resolver) within(real string) (string, bool) {
	for i, root := range r.roots {
		rel, ok := inside(root, real)
		if !ok {
			continue
		}
		if i > 0 {
			rel = filepath.Base(root) + "/" + rel
		}
		return rel, true
	}
	return "", false
}
