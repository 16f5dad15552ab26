package diff

import (
	"encoding/json"
	"fmt"
	"io"
)

// Report is what changed from one snapshot to the next. It names the
// snapshots by what made them, never by where they lie or when they ran, so
// the report of the same two snapshots is the same bytes and can itself be
// diffed, pinned in a golden file or posted on a pull request.
type Report struct {
	Old        SnapshotRef       `json:"old"`
	New        SnapshotRef       `json:"new"`
	Summary    Summary           `json:"summary"`
	Counts     []CountDelta      `json:"counts"`
	Components []ComponentChange `json:"components"`
	Documents  []DocDiff         `json:"documents"` // by path
}

// SnapshotRef identifies one side of a diff.
type SnapshotRef struct {
	Name              string `json:"name"` // artifacts.SnapshotName, "" for a manifest that lacks its parts
	SchemaVersion     string `json:"schema_version"`
	CorpusFingerprint string `json:"corpus_fingerprint"`
	ConfigHash        string `json:"config_hash"`
}

// Summary counts the changes of a report.
type Summary struct {
	DocumentsAdded       int `json:"documents_added"`
	DocumentsRemoved     int `json:"documents_removed"`
	DocumentsChanged     int `json:"documents_changed"`     // the source text changed (doc_version)
	DocumentsRegenerated int `json:"documents_regenerated"` // same source, different output
	ChunksAdded          int `json:"chunks_added"`          // those of added documents included
	ChunksRemoved        int `json:"chunks_removed"`        // those of removed documents included
	ChunksChanged        int `json:"chunks_changed"`
	ChunksMoved          int `json:"chunks_moved"`
	ChunksRelabelled     int `json:"chunks_relabelled"` // same text, new context header or fields
	ThresholdsAdded      int `json:"thresholds_added"`
	ThresholdsRemoved    int `json:"thresholds_removed"`
	ThresholdsChanged    int `json:"thresholds_changed"`
	ComponentsChanged    int `json:"components_changed"`
}

// CountDelta is one row of the before/after table: documents, chunks,
// thresholds, then chunks per kind and per language.
type CountDelta struct {
	Name   string `json:"name"`
	Before int    `json:"before"`
	After  int    `json:"after"`
}

// ComponentChange is a manifest setting that differs: embedder,
// header_writer, tokenizer, schema_version, chunk_budget or config_hash.
type ComponentChange struct {
	Name string `json:"name"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// DocStatus says how a document differs.
type DocStatus string

// The statuses of a document in a report.
const (
	DocAdded       DocStatus = "added"
	DocRemoved     DocStatus = "removed"
	DocChanged     DocStatus = "changed"     // its doc_version differs
	DocRegenerated DocStatus = "regenerated" // same doc_version, but its chunks, headers or thresholds differ
)

// DocDiff is one document that differs. Added and removed documents carry
// their thresholds but not their chunks, which would only repeat the file.
type DocDiff struct {
	Path         string            `json:"path"`
	Status       DocStatus         `json:"status"`
	Title        string            `json:"title"`
	OldVersion   string            `json:"old_version,omitempty"`
	NewVersion   string            `json:"new_version,omitempty"`
	ChunksBefore int               `json:"chunks_before"`
	ChunksAfter  int               `json:"chunks_after"`
	Fields       []FieldChange     `json:"fields,omitempty"` // title, source_url, source_label, tenant_id, kind, lang, beach_id
	Chunks       []ChunkChange     `json:"chunks,omitempty"` // in document order
	Thresholds   []ThresholdChange `json:"thresholds,omitempty"`
	// ChunkIDsAdded and ChunkIDsRemoved are what a vector store keyed by
	// chunk_id applies: insert (upsert) the added ids' rows from the new
	// snapshot, delete the removed ids. In document order, sorted within a
	// document by chunk_order of the side they come from. A chunk whose text
	// is unchanged keeps its id (moved or relabelled: see Chunks).
	ChunkIDsAdded   []string `json:"chunk_ids_added"`
	ChunkIDsRemoved []string `json:"chunk_ids_removed"`
}

// ChangeKind says how a chunk or a threshold changed.
type ChangeKind string

// The kinds of change.
const (
	ChangeAdded      ChangeKind = "added"
	ChangeRemoved    ChangeKind = "removed"
	ChangeChanged    ChangeKind = "changed"    // a chunk's text, or a threshold's value
	ChangeMoved      ChangeKind = "moved"      // the same text out of order, or under a new heading path
	ChangeRelabelled ChangeKind = "relabelled" // the same text in place, with a new context header or fields
)

// ChunkChange is one chunk that differs. Old is nil for an added chunk, New
// for a removed one.
type ChunkChange struct {
	Change      ChangeKind    `json:"change"`
	SectionPath []string      `json:"section_path"` // where it is now; where it was, if removed
	Old         *ChunkSide    `json:"old,omitempty"`
	New         *ChunkSide    `json:"new,omitempty"`
	Fields      []FieldChange `json:"fields,omitempty"` // for unchanged text: header and extracted fields
}

// ChunkSide is a chunk as one snapshot has it. The excerpt is truncated: the
// full text is in the snapshot, under the chunk's key.
type ChunkSide struct {
	ChunkID     string   `json:"chunk_id"`
	Order       int      `json:"chunk_order"`
	SectionPath []string `json:"section_path"`
	ContentHash string   `json:"content_hash"`
	Excerpt     string   `json:"excerpt"`
}

// FieldChange is a value that differs while what it describes does not: a
// document's own column, or the context header or an extracted field of a
// chunk whose text is unchanged.
type FieldChange struct {
	Name string `json:"name"` // context_header | hazard | place | season | unsourced_claim
	Old  string `json:"old"`
	New  string `json:"new"`
}

// ThresholdChange is a threshold added, removed or changed in value,
// matched by document, subject and comparator.
type ThresholdChange struct {
	Change     ChangeKind     `json:"change"`
	Subject    string         `json:"subject"`
	Comparator string         `json:"comparator"`
	Old        *ThresholdSide `json:"old,omitempty"`
	New        *ThresholdSide `json:"new,omitempty"`
}

// ThresholdSide is a threshold's value as one snapshot states it.
type ThresholdSide struct {
	Value    float64 `json:"value"`            // SI
	Value2   float64 `json:"value2,omitempty"` // SI upper end of a between
	SIUnit   string  `json:"si_unit"`
	Surface  string  `json:"surface"`
	Line     int     `json:"line"`
	Sentence string  `json:"sentence"` // truncated
}

// Changed reports whether the two snapshots differ in anything the report
// covers: documents, chunks, thresholds, counts or components.
func (r *Report) Changed() bool {
	if len(r.Documents) > 0 || len(r.Components) > 0 {
		return true
	}
	for _, c := range r.Counts {
		if c.Before != c.After {
			return true
		}
	}
	return false
}

// WriteJSON writes the report as indented JSON. Slices are never null, so a
// consumer can range over them without a check.
func (r *Report) WriteJSON(w io.Writer) error {
	out := *r
	if out.Counts == nil {
		out.Counts = []CountDelta{}
	}
	if out.Components == nil {
		out.Components = []ComponentChange{}
	}
	if out.Documents == nil {
		out.Documents = []DocDiff{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // excerpts keep their < and &
	enc.SetIndent("", "  ")
	withChanged := struct {
		Changed bool `json:"changed"` // what --exit-code decides on
		*Report
	}{r.Changed(), &out}
	if err := enc.Encode(withChanged); err != nil {
		return fmt.Errorf("write diff report: %w", err)
	}
	return nil
}

// tally fills the summary from the documents and components.
func (r *Report) tally() {
	s := Summary{ComponentsChanged: len(r.Components)}
	for _, d := range r.Documents {
		switch d.Status {
		case DocAdded:
			s.DocumentsAdded++
			s.ChunksAdded += d.ChunksAfter
		case DocRemoved:
			s.DocumentsRemoved++
			s.ChunksRemoved += d.ChunksBefore
		case DocChanged:
			s.DocumentsChanged++
		case DocRegenerated:
			s.DocumentsRegenerated++
		}
		for _, c := range d.Chunks {
			switch c.Change {
			case ChangeAdded:
				s.ChunksAdded++
			case ChangeRemoved:
				s.ChunksRemoved++
			case ChangeChanged:
				s.ChunksChanged++
			case ChangeMoved:
				s.ChunksMoved++
			case ChangeRelabelled:
				s.ChunksRelabelled++
			}
		}
		for _, t := range d.Thresholds {
			switch t.Change {
			case ChangeAdded:
				s.ThresholdsAdded++
			case ChangeRemoved:
				s.ThresholdsRemoved++
			case ChangeChanged:
				s.ThresholdsChanged++
			}
		}
	}
	r.Summary = s
}
