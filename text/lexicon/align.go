package lexicon

import (
	"math"
	"path"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// Passage is a chunk as alignment reads it. Passages come in their
// snapshot's order: by document, and in a document by chunk order.
type Passage struct {
	Doc     string
	Lang    schema.Lang
	Section []string // the chunk's section path
	Text    string
}

// Section is one section of a page: its path and the text of its chunks.
type Section struct {
	Lang schema.Lang
	Path []string
	Text string
}

// Pair is a section and its translation.
type Pair struct{ A, B Section }

// Align pairs the pages that translate each other and aligns their
// sections. Two pages translate each other when their paths differ only by
// a language folder ("en/docs/x.md", "pt/docs/x.md"; "lore/x.md",
// "pt-BR/lore/x.md") or a language suffix ("x.pt.md"). Their sections are
// paired in order: one for one when both pages have as many, at the same
// depths; otherwise by the alignment that pairs the most alike sections in
// order (sectionScore), leaving out what one page has and the other lacks
// (a translation that drifted from its original).
func Align(ps []Passage) []Pair {
	pages := map[string]map[schema.Lang]string{} // key → language → doc
	texts := map[string][][]string{}             // doc → its sections' chunk texts
	sections := map[string][]Section{}           // doc → its sections in order
	var keys []string
	last := ""
	for _, p := range ps {
		newDoc := p.Doc != last
		if newDoc {
			last = p.Doc
			k := pageKey(p.Doc, p.Lang)
			if pages[k] == nil {
				pages[k] = map[schema.Lang]string{}
				keys = append(keys, k)
			}
			if _, dup := pages[k][p.Lang]; dup {
				pages[k][p.Lang] = "" // two pages of one language: neither is paired
			} else {
				pages[k][p.Lang] = p.Doc
			}
		}
		ss := sections[p.Doc]
		if newDoc || len(ss) == 0 || !slices.Equal(ss[len(ss)-1].Path, p.Section) {
			sections[p.Doc] = append(ss, Section{Lang: p.Lang, Path: p.Section})
			texts[p.Doc] = append(texts[p.Doc], nil)
		}
		t := texts[p.Doc]
		t[len(t)-1] = append(t[len(t)-1], p.Text)
	}
	for doc, ss := range sections {
		for i := range ss {
			ss[i].Text = strings.Join(texts[doc][i], "\n")
		}
	}
	var out []Pair
	for _, k := range keys {
		en, pt := pages[k][schema.LangEN], pages[k][schema.LangPT]
		if en == "" || pt == "" {
			continue
		}
		out = append(out, alignSections(sections[en], sections[pt])...)
	}
	return out
}

// pageKey is a page's path with its language left out: the folder named
// for it (en, pt, pt-BR, pt_br) wherever it is, or a ".pt" before the
// extension.
func pageKey(doc string, lang schema.Lang) string {
	parts := strings.Split(doc, "/")
	for i, p := range parts[:len(parts)-1] {
		if l := strings.ToLower(p); l == string(lang) || strings.HasPrefix(l, string(lang)+"-") || strings.HasPrefix(l, string(lang)+"_") {
			parts = slices.Delete(parts, i, i+1)
			break
		}
	}
	name := parts[len(parts)-1]
	ext := path.Ext(name)
	if base := strings.TrimSuffix(name, ext); strings.EqualFold(path.Ext(base), "."+string(lang)) {
		parts[len(parts)-1] = strings.TrimSuffix(base, path.Ext(base)) + ext
	}
	return strings.Join(parts, "/")
}

// alignSections pairs two pages' sections in order.
func alignSections(a, b []Section) []Pair {
	if len(a) == len(b) && slices.EqualFunc(a, b, func(x, y Section) bool { return len(x.Path) == len(y.Path) }) {
		out := make([]Pair, len(a))
		for i := range a {
			out[i] = Pair{a[i], b[i]}
		}
		return out
	}
	wa, wb := wordSets(a), wordSets(b)
	// gain[i][j]: what pairing a[i] with b[j] adds; the best total over
	// pairings in order is found by dynamic programming, as a diff is.
	best := make([][]float64, len(a)+1)
	for i := range best {
		best[i] = make([]float64, len(b)+1)
	}
	gain := func(i, j int) float64 { return sectionScore(a[i], b[j], wa[i], wb[j]) - minSectionScore }
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			best[i][j] = max(best[i-1][j], best[i][j-1])
			if g := gain(i-1, j-1); g > 0 {
				best[i][j] = max(best[i][j], best[i-1][j-1]+g)
			}
		}
	}
	var out []Pair
	for i, j := len(a), len(b); i > 0 && j > 0; {
		switch g := gain(i-1, j-1); {
		case g > 0 && best[i][j] == best[i-1][j-1]+g:
			out = append(out, Pair{a[i-1], b[j-1]})
			i, j = i-1, j-1
		case best[i][j] == best[i-1][j]:
			i--
		default:
			j--
		}
	}
	slices.Reverse(out)
	return out
}

// minSectionScore is the score below which two sections are not taken for
// each other: what a section of the same depth and length as another,
// sharing none of its words, scores less a little.
const minSectionScore = 0.05

// sectionScore is how alike two sections of a page and its translation
// are: the Dice coefficient of their words (a translation keeps its names,
// numbers and code), a tenth more at the same depth, less the log of their
// lengths' ratio (a translation is about as long as its original).
func sectionScore(a, b Section, wa, wb map[string]bool) float64 {
	shared := 0
	for w := range wa {
		if wb[w] {
			shared++
		}
	}
	var s float64
	if n := len(wa) + len(wb); n > 0 {
		s = 2 * float64(shared) / float64(n)
	}
	if len(a.Path) == len(b.Path) {
		s += 0.1
	}
	ratio := float64(len(a.Text)+1) / float64(len(b.Text)+1)
	return s - 0.3*math.Abs(math.Log(ratio))
}

func wordSets(ss []Section) []map[string]bool {
	out := make([]map[string]bool, len(ss))
	for i, s := range ss {
		out[i] = map[string]bool{}
		for _, w := range lexical.Words(s.Text) {
			out[i][w] = true
		}
	}
	return out
}
