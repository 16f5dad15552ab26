package reuse

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/diagnostics"
	"github.com/ocean-safety/ingest/schema"
)

// A document whose input (its bytes and the files it includes) is the one
// the previous snapshot records, made by the same build, config and models,
// makes the same rows, diagnostics and report entries again: the run takes
// them from the snapshot instead of parsing, chunking, heading and
// embedding it. The snapshot's documents list says, for each document in
// corpus order, its input hash and how many of its rows and diagnostics
// are its own; docs reads it in step with the diagnostics file, as the
// cursor reads the rows.

// Doc is what the previous snapshot holds of one document, for taking it
// whole: its line of the documents list and its diagnostics.
type Doc struct {
	artifacts.PartDoc
	Diags []schema.Diagnostic
}

// docs reads a snapshot's documents list and diagnostics forward.
type docs struct {
	list   *artifacts.PartDocReader
	file   io.Closer
	diags  *diagnostics.Reader
	next   artifacts.PartDoc
	loaded bool // next holds the list's next line
	eof    bool
}

// openDocs opens the documents list and the diagnostics of the snapshot at
// dir, whose manifest is m, past the diagnostics of the run itself.
func openDocs(dir string, m artifacts.Manifest) (*docs, error) {
	info, ok := m.Files[artifacts.DiagnosticsFile]
	if _, listed := m.Files[artifacts.DocumentsFile]; !listed || !ok {
		return nil, errors.New("no documents list (made by an older ingest)")
	}
	setup := 0
	if m.Shard != nil {
		setup = m.Shard.SetupDiagnostics
	} else {
		rep, err := artifacts.ReadReport(dir)
		if err != nil {
			return nil, err
		}
		setup = rep.SetupDiagnostics
	}
	list, err := artifacts.OpenPartDocs(dir)
	if err != nil {
		return nil, err
	}
	f, err := artifacts.OpenDeclared(filepath.Join(dir, artifacts.DiagnosticsFile), info.Bytes)
	if err != nil {
		list.Close()
		return nil, err
	}
	d := &docs{list: list, file: f, diags: diagnostics.NewReader(f)}
	if err := diagnostics.Copy(nil, d.diags, setup, nil); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// forDoc returns the previous snapshot's account of the document at path,
// nil when it has none, passing over the documents before it. Paths must
// be asked for in ascending order.
func (d *docs) forDoc(path string) (*Doc, error) {
	for {
		if !d.loaded && !d.eof {
			next, err := d.list.Next()
			if errors.Is(err, io.EOF) {
				d.eof = true
				return nil, nil
			}
			if err != nil {
				return nil, err
			}
			d.next, d.loaded = next, true
		}
		if d.eof || d.next.Path > path {
			return nil, nil
		}
		rec := d.next
		d.loaded = false
		if rec.Path < path { // a document the corpus no longer has
			if err := diagnostics.Copy(nil, d.diags, rec.Diagnostics, nil); err != nil {
				return nil, err
			}
			continue
		}
		out := &Doc{PartDoc: rec}
		for range rec.Diagnostics {
			diag, err := d.diags.Next()
			if errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("%s: fewer lines than %s accounts for", artifacts.DiagnosticsFile, artifacts.DocumentsFile)
			}
			if err != nil {
				return nil, err
			}
			out.Diags = append(out.Diags, diag)
		}
		return out, nil
	}
}

func (d *docs) close() {
	if d != nil {
		d.list.Close()
		d.file.Close()
	}
}
