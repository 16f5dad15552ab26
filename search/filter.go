package search

import (
	"fmt"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// Filter narrows the chunks a search ranks. Every field is optional; set
// fields must all match. Filters are applied before ranking, in both legs,
// so a rare source or language is never crowded out of the top k by chunks
// the filter would have dropped afterwards.
type Filter struct {
	Lang        schema.Lang
	Kind        schema.Kind
	BeachID     string // chunks tied to this beach (its lore) only
	SourceLabel string
}

func (f Filter) validate() error {
	if f.Lang != "" && !f.Lang.Valid() {
		return fmt.Errorf("filter: unknown lang %q (want en or pt)", f.Lang)
	}
	if f.Kind != "" {
		if _, err := schema.ParseKind(string(f.Kind)); err != nil {
			return fmt.Errorf("filter: %w", err)
		}
	}
	return nil
}

func (f Filter) match(e *entry) bool {
	return (f.Lang == "" || e.lang == f.Lang) &&
		(f.Kind == "" || e.kind == f.Kind) &&
		(f.BeachID == "" || e.beachID == f.BeachID) &&
		(f.SourceLabel == "" || e.sourceLabel == f.SourceLabel)
}

// beach is a beach the snapshot has lore about, with the words a question
// names it by.
type beach struct {
	id  string
	key []string
}

// genericBeachWords are the words for "beach" that start many beach names:
// "praia-mole" is named by "mole" alone ("the shore break at Mole"), while
// a question saying only "praia" names no beach at all.
var genericBeachWords = map[string]bool{"praia": true, "beach": true}

func newBeach(id string) beach {
	words := lexical.Words(id) // "barra-da-lagoa" → barra, lagoa: hyphens split, stop words go
	var key []string
	for _, w := range words {
		if !genericBeachWords[w] {
			key = append(key, w)
		}
	}
	if len(key) == 0 {
		key = words
	}
	return beach{id: id, key: key}
}

// namedIn reports whether the beach's key words occur, consecutively, among
// the question's words.
func (b beach) namedIn(words []string) bool {
	if len(b.key) == 0 {
		return false
	}
	for i := 0; i+len(b.key) <= len(words); i++ {
		if equalWords(words[i:i+len(b.key)], b.key) {
			return true
		}
	}
	return false
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Beaches returns the ids of the snapshot's beaches that query names,
// matched on accent-folded words ("Barra da Lagoa" names barra-da-lagoa,
// "Praia Mole" and "Mole" name praia-mole), sorted.
func (ix *Index) Beaches(query string) []string {
	words := lexical.Words(query)
	var out []string
	for _, b := range ix.beaches {
		if b.namedIn(words) {
			out = append(out, b.id)
		}
	}
	return out
}

// candidates returns the entries a search ranks, in index order: those the
// filter keeps and, when the question names beaches, none of the other
// beaches' lore. Chunks tied to no beach always stay: a question about
// Joaquina's rip currents is still answered by the rip-current guide.
func (ix *Index) candidates(f Filter, beaches []string) []int {
	named := map[string]bool{}
	for _, b := range beaches {
		named[b] = true
	}
	var out []int
	for i := range ix.entries {
		e := &ix.entries[i]
		if !f.match(e) {
			continue
		}
		if len(named) > 0 && e.beachID != "" && !named[e.beachID] {
			continue
		}
		out = append(out, i)
	}
	return out
}
