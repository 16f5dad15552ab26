package diagnostics

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/ocean-safety/ingest/schema"
)

// File is the name of a snapshot's diagnostics, beside its report.json.
const File = "diagnostics.jsonl"

// maxLine bounds a line a Reader reads: a diagnostic is a path and a
// message, a few hundred bytes; a line past this is not one ingest wrote.
const maxLine = 1 << 20

// Writer streams diagnostics to File, a JSON line each, and digests them
// for the report. Its first error sticks: Write and Close return it.
type Writer struct {
	f      *os.File
	w      *bufio.Writer
	enc    *json.Encoder
	digest Digest
	err    error
}

// Create creates File at path.
func Create(path string) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", File, err)
	}
	w := bufio.NewWriterSize(f, 64<<10)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // a message quotes what it names as written: <url>, not \u003curl\u003e
	return &Writer{f: f, w: w, enc: enc}, nil
}

// Write adds d.
func (w *Writer) Write(d schema.Diagnostic) error {
	if w.err == nil {
		if err := w.enc.Encode(d); err != nil {
			w.err = fmt.Errorf("write %s: %w", File, err)
		}
		w.digest.Add(d)
	}
	return w.err
}

// WriteDocument adds one document's diagnostics, in line order (a
// document's own before any of its lines, as they were found at a line).
func (w *Writer) WriteDocument(ds []schema.Diagnostic) error {
	byLine := func(a, b schema.Diagnostic) int { return cmp.Compare(a.Line, b.Line) }
	if !slices.IsSortedFunc(ds, byLine) {
		ds = slices.Clone(ds)
		slices.SortStableFunc(ds, byLine)
	}
	for _, d := range ds {
		if err := w.Write(d); err != nil {
			return err
		}
	}
	return nil
}

// Digest is what was written, for the report.
func (w *Writer) Digest() *Digest { return &w.digest }

// Close flushes, syncs and closes the file, and returns how many
// diagnostics it holds (the manifest's rows).
func (w *Writer) Close() (int, error) {
	err := errors.Join(w.err, w.w.Flush(), w.f.Sync(), w.f.Close())
	if err != nil {
		return 0, fmt.Errorf("write %s: %w", File, err)
	}
	return w.digest.Len(), nil
}

// Abort closes the file, for a run that publishes nothing.
func (w *Writer) Abort() {
	if w != nil {
		w.f.Close()
	}
}

// Reader reads File forward.
type Reader struct {
	s    *bufio.Scanner
	line int
}

// NewReader reads the diagnostics in r.
func NewReader(r io.Reader) *Reader {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &Reader{s: s}
}

// Next returns the next diagnostic, or io.EOF after the last.
func (r *Reader) Next() (schema.Diagnostic, error) {
	var d schema.Diagnostic
	if !r.s.Scan() {
		if err := r.s.Err(); err != nil {
			return d, fmt.Errorf("%s:%d: %w", File, r.line+1, err)
		}
		return d, io.EOF
	}
	r.line++
	if err := json.Unmarshal(r.s.Bytes(), &d); err != nil {
		return d, fmt.Errorf("%s:%d: %w", File, r.line, err)
	}
	return d, nil
}

// Copy writes the next n diagnostics of r to w (w nil: skips them), each
// through mark when it is not nil; fewer than n left is an error.
func Copy(w *Writer, r *Reader, n int, mark func(schema.Diagnostic) schema.Diagnostic) error {
	for range n {
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%s: %d lines, fewer than its account says", File, r.line)
		}
		if err != nil {
			return err
		}
		if w == nil {
			continue
		}
		if mark != nil {
			d = mark(d)
		}
		if err := w.Write(d); err != nil {
			return err
		}
	}
	return nil
}
