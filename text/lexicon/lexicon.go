package lexicon

import (
	"slices"

	"github.com/ocean-safety/ingest/schema"
)

// Translation is a term of another language that a term may stand for.
type Translation struct {
	Term string // the stem, as lexical.Stemmer reads the other language
	Word string // a word that stems to it, folded: what an embedder reads
	// Weight is how sure the translation is, in (0, 1]: 1 for a term's
	// best. A search weighs a translated term by it.
	Weight float64
}

// direction is a language pair in the order a lexicon translates.
type direction struct{ from, to schema.Lang }

// Lexicon maps the terms of one language to their translations in another,
// in both directions between the languages it holds. The zero value is
// empty; a nil *Lexicon translates nothing.
type Lexicon struct {
	m map[direction]map[string][]Translation // each list by weight, best first
}

// New returns an empty lexicon.
func New() *Lexicon { return &Lexicon{m: map[direction]map[string][]Translation{}} }

// Add records t as a translation of term from one language to another; a
// translation already recorded keeps the higher weight.
func (l *Lexicon) Add(from, to schema.Lang, term string, t Translation) {
	if term == "" || t.Term == "" || t.Weight <= 0 {
		return
	}
	d := direction{from, to}
	if l.m == nil {
		l.m = map[direction]map[string][]Translation{}
	}
	if l.m[d] == nil {
		l.m[d] = map[string][]Translation{}
	}
	ts := l.m[d][term]
	if i := slices.IndexFunc(ts, func(x Translation) bool { return x.Term == t.Term }); i >= 0 {
		if x := ts[i]; t.Weight < x.Weight || t.Weight == x.Weight && t.Word >= x.Word { // the same for any order of adding
			return
		}
		ts = slices.Delete(ts, i, i+1)
	}
	at := slices.IndexFunc(ts, func(x Translation) bool { return before(t, x) })
	if at < 0 {
		at = len(ts)
	}
	l.m[d][term] = slices.Insert(ts, at, t)
}

// before orders a term's translations: by weight, best first, then by term.
func before(a, b Translation) bool {
	if a.Weight != b.Weight {
		return a.Weight > b.Weight
	}
	return a.Term < b.Term
}

// Translate returns the translations of term from one language into
// another, best first; nil when the lexicon has none.
func (l *Lexicon) Translate(from, to schema.Lang, term string) []Translation {
	if l == nil {
		return nil
	}
	return l.m[direction{from, to}][term]
}

// Len is the number of terms the lexicon translates, in every direction.
func (l *Lexicon) Len() int {
	if l == nil {
		return 0
	}
	n := 0
	for _, ts := range l.m {
		n += len(ts)
	}
	return n
}
