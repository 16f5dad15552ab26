package reuse

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ocean-safety/ingest/corpus/stamp"
)

// A run learns which documents changed by their input hashes: reading and
// hashing the whole corpus, every night. Stamps spare the reading, as
// restic and git spare it: each file's stamp (stamp.Stamp: size, times,
// inode) and input hash, recorded when a run last hashed it, and a file
// whose stamp has not changed since is taken to hold the bytes it hashed
// then. They are kept on this machine, one file a corpus folder, in a
// cache folder the tool owns (a stamp means nothing on another machine or
// copy), in corpus order, read and written as streams: a line a document,
// its path, stamp (a document that includes files: with the paths its
// includes were looked for at, and theirs, stamp.With) and input hash.
//
// A file holds the stamps of one corpus folder read by one build with one
// configuration (its key): a document's input hash depends on how its
// includes are resolved, by the code and the settings of the run that
// hashed it, so stamps recorded under another key are not believed.

const stampsHeader = "ingest-stamps 2\t"

// maxStampLine bounds a line of a stamps file: past it the file ends
// there (stamp.With bounds a stamp well within it).
const maxStampLine = 64 << 10

// StampsPath is the stamps file of the corpus at root in the cache folder
// dir.
func StampsPath(dir, root string) string {
	sum := sha256.Sum256([]byte(rootOf(root)))
	return filepath.Join(dir, "stamps", hex.EncodeToString(sum[:16])+".tsv")
}

// StampReader reads a stamps file forward. A missing, damaged or foreign
// file reads as holding nothing: every file is read and hashed.
type StampReader struct {
	f    *os.File
	sc   *bufio.Scanner
	path string // the next line's
	line []string
}

// OpenStamps opens the stamps file at path, of the corpus at root, read
// with key.
func OpenStamps(path, root, key string) *StampReader {
	f, err := os.Open(path)
	if err != nil {
		return &StampReader{}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, maxStampLine)
	if !sc.Scan() || sc.Text() != header(root, key) {
		f.Close()
		return &StampReader{}
	}
	r := &StampReader{f: f, sc: sc}
	r.advance()
	return r
}

// advance reads the next line; a line that is not path, stamp and hash
// ends the file.
func (r *StampReader) advance() {
	r.line = nil
	if r.sc == nil || !r.sc.Scan() {
		return
	}
	t := r.sc.Text()
	i, j := strings.IndexByte(t, '\t'), strings.LastIndexByte(t, '\t')
	if i > 0 && j > i+1 && j < len(t)-1 && (len(r.path) == 0 || t[:i] > r.path) {
		r.line, r.path = []string{t[:i], t[i+1 : j], t[j+1:]}, t[:i]
	}
}

// For returns the stamp and input hash recorded for path, none when
// there is none (or on a nil StampReader). Paths must be asked for in
// ascending order.
func (r *StampReader) For(path string) (stamp.Stamp, string) {
	if r == nil {
		return "", ""
	}
	for r.line != nil && r.line[0] < path {
		r.advance()
	}
	if r.line == nil || r.line[0] != path {
		return "", ""
	}
	return stamp.Stamp(r.line[1]), r.line[2]
}

// Close releases the file; it is safe on a nil StampReader.
func (r *StampReader) Close() {
	if r != nil && r.f != nil {
		r.f.Close()
	}
}

// StampWriter writes a stamps file: into a temporary file beside it, which
// Close renames over the old one, so a reader sees one file or the other.
type StampWriter struct {
	path string
	f    *os.File
	w    *bufio.Writer
	err  error
}

// CreateStamps starts the stamps file at path for the corpus at root, read
// with key.
func CreateStamps(path, root, key string) (*StampWriter, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("stamps: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".stamps-*")
	if err != nil {
		return nil, fmt.Errorf("stamps: %w", err)
	}
	w := &StampWriter{path: path, f: f, w: bufio.NewWriter(f)}
	_, w.err = w.w.WriteString(header(root, key) + "\n")
	return w, nil
}

// Add records a document's stamp and input hash; one without a stamp is
// left out. Documents must come in corpus order.
func (w *StampWriter) Add(path string, stamp stamp.Stamp, input string) {
	if w == nil || stamp == "" || w.err != nil || strings.ContainsAny(path, "\t\n\r") {
		return // a path that cannot be written on a line has no stamp, and is read
	}
	_, w.err = fmt.Fprintf(w.w, "%s\t%s\t%s\n", path, stamp, input)
}

// Close puts the file in place; nil does nothing.
func (w *StampWriter) Close() error {
	if w == nil {
		return nil
	}
	err := errors.Join(w.err, w.w.Flush(), w.f.Close())
	if err == nil {
		err = os.Rename(w.f.Name(), w.path)
	}
	if err != nil {
		os.Remove(w.f.Name())
		return fmt.Errorf("stamps: %w", err)
	}
	return nil
}

// Abort drops the file written; nil does nothing.
func (w *StampWriter) Abort() {
	if w != nil && w.f != nil {
		w.f.Close()
		os.Remove(w.f.Name())
	}
}

// header is the first line of the stamps file of the corpus at root, read
// with key.
func header(root, key string) string {
	return stampsHeader + rootOf(root) + "\t" + strings.NewReplacer("\n", " ", "\t", " ").Replace(key)
}

// rootOf is root as its stamps file is named and its header says it:
// absolute, symbolic links resolved (one folder, one file, however it is
// named), on one line.
func rootOf(root string) string {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return strings.NewReplacer("\n", " ", "\t", " ").Replace(root)
}
