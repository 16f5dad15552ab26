package schema

import (
	"fmt"
	"strings"
)

// Kind is the kind of knowledge a document (or a chunk) holds. What a kind
// means, how its documents are cut and what their chunks carry, is its
// KindRules, stated once in kindTable.
type Kind string

// The kinds a corpus document can declare.
const (
	KindProse      Kind = "prose"
	KindSafety     Kind = "safety"
	KindLore       Kind = "lore"
	KindStructured Kind = "structured"
)

// DefaultKind is the kind of a document that names none and sits under no
// kind's Folder.
const DefaultKind = KindProse

// kindTable is every kind and what it means, in the stable order of Kinds
// (reports, the diff's counts, error messages). A new kind is a row here
// (and, since pgvector's CHECK lists the kinds, a migration in pgsync);
// the loader, the chunker, the size tally, the quality figures and the
// closed lists read it, and tests hold the docs and the push schema's enum
// to it.
var kindTable = []KindRules{
	// Cut by heading section, paragraphs merged up to the budget.
	{Kind: KindProse, Cut: CutSection, WarnTables: true, Banded: true},
	// One rule (paragraph or list item) per chunk.
	{Kind: KindSafety, Cut: CutBlock, Folder: "safety", Safety: true},
	// One paragraph per chunk, tied to a beach.
	{Kind: KindLore, Cut: CutBlock, Beach: true},
	// Tables, one chunk per row (a table row is structured in any
	// document); the paragraphs around them packed as prose's.
	{Kind: KindStructured, Cut: CutSection, Rows: true},
}

// KindRules is what a kind means: every decision that differs from one
// kind to another. It is data, read where the decision is taken; a rule
// that follows from another is a method (MergesSmall).
type KindRules struct {
	Kind Kind
	// Cut is how a document of the kind is cut into chunks.
	Cut Cut
	// Folder, when set, makes a document under a folder of that name (any
	// segment of its path) of this kind unless it names one.
	Folder string
	// Beach ties the kind to a beach: a document needs a "Beach: <id>"
	// header (else the error <kind>-without-beach), and its chunks carry
	// the id as beach_id.
	Beach bool
	// Safety makes every chunk of the kind's documents a safety rule
	// (Chunk.Safety), a table row too.
	Safety bool
	// Rows makes every table row a chunk of this kind, whatever its
	// document's kind (ChunkKind). One kind holds the rows.
	Rows bool
	// WarnTables warns of a table in a document of the kind (the warning
	// table-in-<kind>): its rows become chunks of the Rows kind, not of
	// this one.
	WarnTables bool
	// Banded holds the kind's paragraph and list-item chunks to the
	// chunk.min..chunk.max band where their section is longer than
	// chunk.min (the quality figures Banded and InBand). Not structured's:
	// its sections' sizes are their rows', which say nothing of the few
	// words around a table.
	Banded bool
}

// Cut is how a document is cut into chunks.
type Cut uint8

// The cuts. The zero Cut is no kind's: an unknown kind's rules.
const (
	// CutSection packs the blocks of a heading section up to the budget: a
	// paragraph with the ones after it, a list with its items, a lead-in
	// with what it introduces; then pieces under chunk.min merge with a
	// neighbour, and chunk.overlap applies.
	CutSection Cut = iota + 1
	// CutBlock makes each paragraph, list item and table row a chunk of
	// its own, read alone: only a ":" makes a lead-in, which joins the
	// first block it introduces where the two fit, and the others carry
	// it. Nothing merges, whatever its size.
	CutBlock
)

// MergesSmall reports whether the kind's pieces under chunk.min merge with
// a neighbour, so that its paragraphs and list items under chunk.min are
// fragments the size tally counts (SizeTally.UnderMin). A safety rule or a
// lore paragraph is a chunk whatever its size.
func (r KindRules) MergesSmall() bool { return r.Cut == CutSection }

// Rules returns what k means; the zero KindRules for a kind not in Kinds.
func (k Kind) Rules() KindRules {
	for _, r := range kindTable {
		if r.Kind == k {
			return r
		}
	}
	return KindRules{}
}

// Kinds lists every kind in a stable order, for reports and validation.
var Kinds = func() []Kind {
	ks := make([]Kind, len(kindTable))
	for i, r := range kindTable {
		ks[i] = r.Kind
	}
	return ks
}()

// KindNames lists the kinds' names, in the order of Kinds, for messages
// and usage lines.
func KindNames() []string {
	out := make([]string, len(Kinds))
	for i, k := range Kinds {
		out[i] = string(k)
	}
	return out
}

// ParseKind returns the Kind named by s, or an error naming the accepted values.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	names := KindNames()
	return "", fmt.Errorf("unknown kind %q (want %s or %s)", s, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool { return k.Rules().Kind != "" }

// ChunkKind is the kind of a chunk cut from element el of a document of
// kind doc: the document's, but a table row's is the kind that holds the
// rows (KindRules.Rows) in any document.
func ChunkKind(doc Kind, el Element) Kind {
	if el == ElementTableRow {
		for _, r := range kindTable {
			if r.Rows {
				return r.Kind
			}
		}
	}
	return doc
}
