package artifacts

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// DocumentsFile is a snapshot's account of its documents, one JSON line
// each in corpus order: what a merge needs to rebuild the fingerprints, the
// counts and the report of the whole run from its parts, and what the next
// run needs to take an unchanged document's rows, diagnostics and report
// entries from the snapshot instead of making them again.
const DocumentsFile = "documents.jsonl"

// Document statuses in DocumentsFile.
const (
	DocIngested = "ingested"
	DocRejected = "rejected"
	DocDraft    = "draft"
)

// PartDoc is one line of DocumentsFile. The counts say how many of the
// snapshot's diagnostics (in DiagnosticsFile), rejects and ungrounded
// thresholds (in the report), in their order, and rows are this
// document's; LangFrom, Markup and Bytes are its share of the report and
// of a plan.
type PartDoc struct {
	Path        string         `json:"path"`
	Input       string         `json:"input"`             // the input hash: the file's bytes and the files it includes (corpus.InputDigest)
	Version     string         `json:"version,omitempty"` // doc_version
	Status      string         `json:"status"`
	Diagnostics int            `json:"diagnostics,omitempty"`
	Rejects     int            `json:"rejects,omitempty"`
	Ungrounded  int            `json:"ungrounded,omitempty"`
	Chunks      int            `json:"chunks,omitempty"`
	LangFrom    string         `json:"lang_from,omitempty"` // how its language was decided, when ingested
	Markup      map[string]int `json:"markup,omitempty"`    // the markup removed from it, by kind, when ingested
	Bytes       int            `json:"bytes,omitempty"`     // its text's length, when ingested
}

// PartDocWriter writes DocumentsFile.
type PartDocWriter struct {
	f   *os.File
	w   *bufio.Writer
	enc *json.Encoder
	err error
}

// CreatePartDocs creates DocumentsFile at path.
func CreatePartDocs(path string) (*PartDocWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriter(f)
	return &PartDocWriter{f: f, w: w, enc: json.NewEncoder(w)}, nil
}

// Write adds one document; the first error sticks and Close returns it.
func (pw *PartDocWriter) Write(d PartDoc) {
	if pw.err == nil {
		pw.err = pw.enc.Encode(d)
	}
}

// Close flushes, syncs and closes the file.
func (pw *PartDocWriter) Close() error {
	err := errors.Join(pw.err, pw.w.Flush(), pw.f.Sync(), pw.f.Close())
	if err != nil {
		return fmt.Errorf("write %s: %w", DocumentsFile, err)
	}
	return nil
}

// Abort closes the file, for a run that publishes nothing.
func (pw *PartDocWriter) Abort() {
	if pw != nil {
		pw.f.Close()
	}
}

// PartDocReader reads DocumentsFile forward.
type PartDocReader struct {
	f    *os.File
	dec  *json.Decoder
	line int
}

// OpenPartDocs opens the DocumentsFile of the snapshot in dir.
func OpenPartDocs(dir string) (*PartDocReader, error) {
	f, _, err := OpenRegular(dir + string(os.PathSeparator) + DocumentsFile)
	if err != nil {
		return nil, err
	}
	return &PartDocReader{f: f, dec: json.NewDecoder(bufio.NewReader(f))}, nil
}

// Next returns the next document, or io.EOF after the last.
func (pr *PartDocReader) Next() (PartDoc, error) {
	var d PartDoc
	err := pr.dec.Decode(&d)
	if err == io.EOF {
		return d, err
	}
	pr.line++
	if err != nil {
		return d, fmt.Errorf("%s:%d: %w", DocumentsFile, pr.line, err)
	}
	return d, nil
}

// Close closes the file.
func (pr *PartDocReader) Close() error { return pr.f.Close() }
