package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus/stamp"
	"github.com/ocean-safety/ingest/schema"
)

// A Format reads one kind of file (Markdown, HTML) into the record the
// chunker reads. It is given the file's bytes: reading the file, bounding
// its size and hashing it are the Reader's, done once for every format.
// Parse never fails: what is wrong with a document is in its diagnostics.
type Format interface {
	Parse(rel string, raw []byte) Parsed
}

// Parsed is a document as its format read it: the record the parse stage
// hands the chunk stage, the same for every format.
type Parsed struct {
	Doc   schema.Document
	Diags []schema.Diagnostic
	// Rejected is set when a diagnostic is an error: the document is
	// reported and not chunked.
	Rejected bool
	// RawSHA256 is the hash of the file's bytes as read, before
	// normalisation: what the input fingerprint is made of (set by the
	// Reader).
	RawSHA256 string
	// Body is the document's view and blocks, with the markup its format
	// removed (Body.Markup); nil when Rejected.
	Body *chunking.Body
	// Included are the files the document took in (snippets, include
	// directives): RawSHA256 covers them, so an edit to one rebuilds the
	// documents that include it.
	Included []Included
	// Deps are the paths the document's includes were looked for at, with
	// their stamps: found or not, what RawSHA256 depends on besides the
	// file's bytes.
	Deps []stamp.Dep
	// Stamp is the file's with its Deps' (stamp.With; see
	// Reader.InputStamped), set by the Reader.
	Stamp stamp.Stamp
}

// now is the clock stamps are read by (tests move it on).
var now = time.Now

// Included is a file a document included, by the path its root gives it.
type Included struct{ Path, SHA256 string }

// An Includer is a Format that can tell the files a document includes
// without parsing the rest of it: what the input hash needs of a document
// (Reader.InputDigest), at the cost of reading its directives, not its
// body. It must return what Parse returns in Parsed.Included and
// Parsed.Deps. Mentions reports whether raw names anything to include at
// all: one that names nothing has the input hash of its bytes alone,
// whatever the files around it.
type Includer interface {
	Includes(rel string, raw []byte) ([]Included, []stamp.Dep)
	Mentions(raw []byte) bool
}

// InputDigest is a document's input hash: its own bytes' (own) and, when
// it includes files, theirs.
func InputDigest(own string, included []Included) string {
	if len(included) == 0 {
		return own
	}
	h := sha256.New()
	h.Write([]byte(own))
	for _, f := range included {
		fmt.Fprintf(h, "\x00%s\x00%s", f.Path, f.SHA256)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// mayInclude reports whether raw holds anything an include directive
// starts with: a document without one hashes as its bytes alone.
func mayInclude(raw []byte) bool {
	for _, lit := range []string{"8<", "{%", "{*", "{!", "{{", "raw-loader!", "?raw", "codeinclude"} {
		if bytes.Contains(raw, []byte(lit)) {
			return true
		}
	}
	return false
}

// InputDigest is the input hash of the document at rel as Parse computes
// it (Parsed.RawSHA256), without parsing a document that includes nothing
// (nor, with an Includer, one that does):
// what an unchanged corpus is recognised by. A file that cannot be read is
// UnreadableDigest, as Parse gives it; one over the size limit is hashed
// as a stream, never loaded.
func (r *Reader) InputDigest(rel string) string {
	sum, _ := r.InputStamped(rel, "", "")
	return sum
}

// InputStamped is InputDigest with the file's stamp, and the stamps of
// the paths its includes were looked for at (stamp.With). Given the stamp
// and input hash recorded when the file was last hashed, a file whose
// stamp still holds (stamp.Same: its own and those paths') is not read:
// its input hash is sum.
func (r *Reader) InputStamped(rel string, known stamp.Stamp, sum string) (string, stamp.Stamp) {
	path := filepath.Join(r.root, filepath.FromSlash(rel))
	info, err := os.Stat(path)
	if err != nil {
		return UnreadableDigest, ""
	}
	st := stamp.Of(info, now())
	switch {
	case st != "" && sum != "" && stamp.Same(known, st, &r.deps, now()):
		return sum, known
	case info.Size() > int64(r.opt.Limits.orDefault().MaxBytes):
		sum, err := DigestFile(path)
		if err != nil {
			return UnreadableDigest, ""
		}
		return sum, st
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return UnreadableDigest, ""
	}
	if r.alone(rel, raw) {
		return Digest(raw), st
	}
	i, _ := r.list.of(rel)
	if inc, ok := r.formats[i].(Includer); ok {
		files, deps := inc.Includes(rel, raw)
		return InputDigest(Digest(raw), files), stamp.With(st, deps)
	}
	return InputDigest(Digest(raw), r.ParseBytes(rel, raw).Included), ""
}

// alone reports whether the document rel, of bytes raw, names nothing to
// include: its input hash is its bytes' alone.
func (r *Reader) alone(rel string, raw []byte) bool {
	if !mayInclude(raw) {
		return true
	}
	i, _ := r.list.of(rel)
	inc, ok := r.formats[i].(Includer)
	return ok && !inc.Mentions(raw)
}

// Registration is one format in the list of formats (package formats):
// the extensions it reads and how it is made for a corpus's options.
type Registration struct {
	Name       string
	Extensions []string // lower case, with the dot: ".md"
	New        func(Options) Format
}

// Formats are the formats a corpus is read with. The first one reads a
// file given by name whose extension no format claims (ingest chunk
// README), as Markdown always did.
type Formats []Registration

// Reads reports whether a format reads the file at rel: whether a scan
// takes it as a document.
func (fs Formats) Reads(rel string) bool {
	_, ok := fs.of(rel)
	return ok
}

func (fs Formats) of(rel string) (int, bool) {
	ext := strings.ToLower(filepath.Ext(rel))
	for i, f := range fs {
		for _, e := range f.Extensions {
			if e == ext {
				return i, true
			}
		}
	}
	return 0, false
}

// Reader reads a corpus's documents, each with the format its extension
// names.
type Reader struct {
	root    string
	opt     Options
	formats []Format // in the order of Formats
	list    Formats
	deps    stamp.Paths // the stamps of the paths documents include from
}

// Reader returns a reader of the corpus at root. opt's SourceLabel
// defaults to DefaultSourceLabel of root.
func (fs Formats) Reader(root string, opt Options) *Reader {
	if opt.SourceLabel == "" {
		opt.SourceLabel = DefaultSourceLabel(root)
	}
	r := &Reader{root: root, opt: opt, list: fs, deps: stamp.Paths{Root: root}}
	for _, f := range fs {
		r.formats = append(r.formats, f.New(opt))
	}
	return r
}

// SourceLabel is the label written on every document: the configured
// one, or a slug of the corpus folder's name.
func (r *Reader) SourceLabel() string { return r.opt.SourceLabel }

// Parse loads and parses the document at rel (relative to the corpus root).
// Problems with the document are in Parsed.Diags, a file that cannot be
// read among them (Unreadable): one file the run may not open is that
// file's problem, not the run's. The error is kept for what is not the
// document's.
func (r *Reader) Parse(rel string) (Parsed, error) {
	path := filepath.Join(r.root, filepath.FromSlash(rel))
	limits := r.opt.Limits.orDefault()
	var st stamp.Stamp
	if info, err := os.Stat(path); err == nil {
		st = stamp.Of(info, now()) // read before the bytes: a change after it changes it
		if info.Size() > int64(limits.MaxBytes) {
			// Not read into memory: hashed as a stream, and refused.
			sum, err := DigestFile(path)
			if err != nil {
				return Unreadable(rel, err), nil
			}
			return Parsed{Doc: schema.Document{Path: rel}, Diags: TooLarge(rel, info.Size(), limits), Rejected: true, RawSHA256: sum, Stamp: st}, nil
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return Unreadable(rel, err), nil
	}
	parsed := r.ParseBytes(rel, raw)
	parsed.RawSHA256 = InputDigest(Digest(raw), parsed.Included)
	if i, _ := r.list.of(rel); r.alone(rel, raw) {
		parsed.Stamp = st
	} else if _, ok := r.formats[i].(Includer); ok {
		parsed.Stamp = stamp.With(st, parsed.Deps)
	}
	return parsed, nil
}

// ParseBytes is Parse for a document already in memory (the chunk command,
// tests, fuzzing).
func (r *Reader) ParseBytes(rel string, raw []byte) Parsed {
	i, _ := r.list.of(rel)
	return r.formats[i].Parse(rel, raw)
}
