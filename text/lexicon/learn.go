package lexicon

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// What Learn keeps: a translation must be linked in minLinks aligned
// sections and in at least minShare of the sections holding the rarer of
// its two terms, so a pair that met by chance in a section or two is not
// learned; maxLearned translations a term at most.
const (
	minLinks   = 2
	minShare   = 0.2
	maxLearned = 3
)

// Learn returns the translations aligned sections attest: which term of
// one section stands for which of its translation's. It counts, over the
// pairs, the sections each term is in and the pairs in which two terms are
// together, and scores each pair of terms by their Dice coefficient; then,
// in each aligned pair, it links terms one to one, the best scoring pair of
// terms first (Melamed's competitive linking, so a term frequent beside the
// true translation is not taken for it), and counts the links. A pair of
// terms linked often enough (minLinks, minShare) is a translation both
// ways, weighted by its links over the sections of the more frequent term.
// The same pairs give the same lexicon, in any order of equal terms.
func Learn(pairs []Pair) *Lexicon {
	v := newVocab()
	sets, df := v.sets(pairs)
	out := New()
	for l, n := range countLinks(sets, partners(sets, df)) {
		if n < minLinks || float64(n) < minShare*float64(min(df[l[0]], df[l[1]])) {
			continue
		}
		share := float64(n) / float64(max(df[l[0]], df[l[1]]))
		a, b := v.names[l[0]], v.names[l[1]]
		out.Add(a.lang, b.lang, a.term, Translation{Term: b.term, Word: v.word(l[1]), Weight: share})
		out.Add(b.lang, a.lang, b.term, Translation{Term: a.term, Word: v.word(l[0]), Weight: share})
	}
	out.keepBest(maxLearned)
	return out
}

// sets returns the terms of each pair's two sections, and the number of
// sections each term is in. A term in fewer than minLinks sections can never
// be linked often enough: it is left out of the sets, which saves most of
// the counting.
func (v *vocab) sets(pairs []Pair) ([][2][]int32, []int32) {
	sets := make([][2][]int32, len(pairs))
	for i, p := range pairs {
		sets[i] = [2][]int32{v.terms(p.A), v.terms(p.B)}
	}
	df := make([]int32, len(v.names))
	for _, s := range sets {
		for _, side := range s {
			for _, t := range side {
				df[t]++
			}
		}
	}
	for i := range sets {
		for j, side := range sets[i] {
			sets[i][j] = slices.DeleteFunc(side, func(t int32) bool { return df[t] < minLinks })
		}
	}
	return sets, df
}

// countLinks links the terms of each pair's sections (competitiveLinks,
// among each term's near partners) and counts, for each pair of terms, the
// sections in which they were linked.
func countLinks(sets [][2][]int32, near [][]assoc) map[[2]int32]int32 {
	links := map[[2]int32]int32{}
	in := make([]int, len(near)) // the pair a term was last seen in, plus one
	for i, s := range sets {
		for _, side := range s {
			for _, t := range side {
				in[t] = i + 1
			}
		}
		both := func(a assoc) bool { return in[a.l[0]] == i+1 && in[a.l[1]] == i+1 }
		var cands []assoc
		for _, t := range s[0] {
			for _, a := range near[t] {
				if both(a) {
					cands = append(cands, a)
				}
			}
		}
		for _, t := range s[1] { // a pair listed under its A term too is there already
			for _, a := range near[t] {
				if both(a) && !slices.Contains(near[a.l[0]], a) {
					cands = append(cands, a)
				}
			}
		}
		for _, l := range competitiveLinks(cands) {
			links[l]++
		}
	}
	return links
}

// assoc is a pair of terms (the first of section A, the second of its
// translation B) and their Dice coefficient: twice the aligned pairs they
// are together in over the sections each is in.
type assoc struct {
	l    [2]int32
	dice float64
}

// nearPartners is how many partners of a term, by Dice coefficient, may be
// linked to it: a term's translation is among its few best partners, and
// looking no further keeps linking in proportion to the terms, not to
// their pairs.
const nearPartners = 6

// partners lists each term's nearPartners best partners by Dice
// coefficient (a pair under both its terms), best first, among the terms
// of the other language together with it in minLinks aligned pairs or more
// (no other can be linked often enough). It goes term by term of the A
// sides, counting the B terms of the pairs it is in in one array as wide as
// the vocabulary, and keeps only each term's best: there are millions of
// pairs of terms, and a map or a list of them spent most of its time
// missing the cache, and a hundred megabytes on the otel docs.
func partners(sets [][2][]int32, df []int32) [][]assoc {
	terms := len(df)
	postings := make([][]int32, terms) // A term → the pairs it is in
	for i, s := range sets {
		for _, a := range s[0] {
			postings[a] = append(postings[a], int32(i))
		}
	}
	near := make([][]assoc, terms)
	keep := func(t int32, a assoc) { // near[t] stays sorted and short
		as := near[t]
		i, _ := slices.BinarySearchFunc(as, a, byDice)
		if i < nearPartners {
			if len(as) == nearPartners {
				as = as[:nearPartners-1]
			}
			near[t] = slices.Insert(as, i, a)
		}
	}
	count := make([]int32, terms)
	var touched []int32
	for a, ps := range postings {
		for _, p := range ps {
			for _, b := range sets[p][1] {
				if count[b] == 0 {
					touched = append(touched, b)
				}
				count[b]++
			}
		}
		for _, b := range touched {
			if count[b] >= minLinks {
				as := assoc{[2]int32{int32(a), b}, 2 * float64(count[b]) / float64(df[a]+df[b])}
				keep(int32(a), as)
				keep(b, as)
			}
			count[b] = 0
		}
		touched = touched[:0]
	}
	return near
}

// byDice orders associations best first, then by their terms: an order
// that does not depend on how they were listed.
func byDice(p, q assoc) int {
	if c := cmp.Compare(q.dice, p.dice); c != 0 {
		return c
	}
	if c := cmp.Compare(p.l[0], q.l[0]); c != 0 {
		return c
	}
	return cmp.Compare(p.l[1], q.l[1])
}

// competitiveLinks links the terms of two aligned sections one to one
// among the candidate pairs, the best Dice coefficient first.
func competitiveLinks(cands []assoc) [][2]int32 {
	slices.SortFunc(cands, byDice)
	used := map[int32]bool{}
	var out [][2]int32
	for _, a := range cands {
		if !used[a.l[0]] && !used[a.l[1]] {
			used[a.l[0]], used[a.l[1]] = true, true
			out = append(out, a.l)
		}
	}
	return out
}

// vocab numbers the terms of every language (a term is its language and
// stem: "port" in English is not "port" in Portuguese) and counts the
// words each stems from.
type vocab struct {
	ids      map[name]int32
	names    []name
	words    []map[string]int
	stemmers map[schema.Lang]*lexical.Stemmer
}

type name struct {
	lang schema.Lang
	term string
}

func newVocab() *vocab {
	return &vocab{ids: map[name]int32{}, stemmers: map[schema.Lang]*lexical.Stemmer{}}
}

// terms returns the distinct terms of a section (its heading, the last
// element of its path, and its text) in ascending order.
func (v *vocab) terms(s Section) []int32 {
	st := v.stemmers[s.Lang]
	if st == nil {
		st = lexical.NewStemmer(s.Lang)
		v.stemmers[s.Lang] = st
	}
	text := s.Text
	if len(s.Path) > 0 {
		text = s.Path[len(s.Path)-1] + "\n" + text
	}
	seen := map[int32]bool{}
	var out []int32
	for _, sw := range st.Stemmed(text) {
		n := name{s.Lang, sw.Term}
		id, ok := v.ids[n]
		if !ok {
			id = int32(len(v.names))
			v.ids[n] = id
			v.names = append(v.names, n)
			v.words = append(v.words, map[string]int{})
		}
		v.words[id][sw.Word]++
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// word is the word term id is most often written as (the first in
// alphabetical order of equally frequent ones), folded.
func (v *vocab) word(id int32) string {
	best, n := "", 0
	for w, c := range v.words[id] {
		if c > n || c == n && strings.Compare(w, best) < 0 {
			best, n = w, c
		}
	}
	return lexical.Fold(best)
}

// keepBest keeps each term's n best translations.
func (l *Lexicon) keepBest(n int) {
	for _, terms := range l.m {
		for t, ts := range terms {
			if len(ts) > n {
				terms[t] = ts[:n]
			}
		}
	}
}
