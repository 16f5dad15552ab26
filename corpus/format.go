package corpus

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/ocean-safety/ingest/chunking"
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
}

// Reader returns a reader of the corpus at root. opt's SourceLabel
// defaults to DefaultSourceLabel of root.
func (fs Formats) Reader(root string, opt Options) *Reader {
	if opt.SourceLabel == "" {
		opt.SourceLabel = DefaultSourceLabel(root)
	}
	r := &Reader{root: root, opt: opt, list: fs}
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
	if info, err := os.Stat(path); err == nil && info.Size() > int64(limits.MaxBytes) {
		// Not read into memory: hashed as a stream, and refused.
		sum, err := DigestFile(path)
		if err != nil {
			return Unreadable(rel, err), nil
		}
		return Parsed{Doc: schema.Document{Path: rel}, Diags: TooLarge(rel, info.Size(), limits), Rejected: true, RawSHA256: sum}, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return Unreadable(rel, err), nil
	}
	parsed := r.ParseBytes(rel, raw)
	parsed.RawSHA256 = Digest(raw)
	return parsed, nil
}

// ParseBytes is Parse for a document already in memory (the chunk command,
// tests, fuzzing).
func (r *Reader) ParseBytes(rel string, raw []byte) Parsed {
	i, _ := r.list.of(rel)
	return r.formats[i].Parse(rel, raw)
}
