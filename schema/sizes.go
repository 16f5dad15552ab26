package schema

import (
	"maps"
	"slices"
	"unicode/utf8"
)

// SizeStats summarises chunk sizes in the budget's unit (characters or
// tokens): how many, and the 10th, 50th and 90th percentiles (nearest rank)
// and the largest.
type SizeStats struct {
	Count  int `json:"count"`
	P10    int `json:"p10"`
	Median int `json:"median"`
	P90    int `json:"p90"`
	Max    int `json:"max"`
}

// Sizes counts chunk sizes by group ("prose/paragraph"): a count per
// distinct size, so its memory follows the distinct sizes (a few thousand),
// not the chunks, its percentiles are exact, and two of them add up (a
// merge of parts gives the figures of one run).
type Sizes struct {
	by map[string]map[int]int
}

// Add counts one chunk of size n in group.
func (s *Sizes) Add(group string, n int) { s.add(group, n, 1) }

func (s *Sizes) add(group string, n, k int) {
	if s.by == nil {
		s.by = map[string]map[int]int{}
	}
	h := s.by[group]
	if h == nil {
		h = map[int]int{}
		s.by[group] = h
	}
	h[n] += k
}

// Merge adds o's counts to s.
func (s *Sizes) Merge(o Sizes) {
	for g, h := range o.by {
		for n, k := range h {
			s.add(g, n, k)
		}
	}
}

// Groups are the groups counted, sorted.
func (s *Sizes) Groups() []string { return slices.Sorted(maps.Keys(s.by)) }

// Stats summarises one group; the empty group name summarises them all.
func (s *Sizes) Stats(group string) SizeStats {
	h := map[int]int{}
	for g, gh := range s.by {
		if group != "" && g != group {
			continue
		}
		for n, k := range gh {
			h[n] += k
		}
	}
	return summarise(h)
}

func summarise(h map[int]int) SizeStats {
	sizes := slices.Sorted(maps.Keys(h))
	var st SizeStats
	for _, n := range sizes {
		st.Count += h[n]
	}
	if st.Count == 0 {
		return st
	}
	st.Max = sizes[len(sizes)-1]
	rank := func(p int) int { // nearest rank: the smallest size with at least p% at or below it
		want := (p*st.Count + 99) / 100
		seen := 0
		for _, n := range sizes {
			if seen += h[n]; seen >= want {
				return n
			}
		}
		return st.Max
	}
	st.P10, st.Median, st.P90 = rank(10), rank(50), rank(90)
	return st
}

// SizeTally counts the sizes of chunks as a snapshot's rows are written,
// in the budget's unit ("chars": characters; "tokens": TokenCount, which the
// same counter fills), by kind/element, and the prose chunks of the kinds
// whose small pieces merge (KindRules.MergesSmall) that are under the
// minimum anyway.
type SizeTally struct {
	Unit     string
	Min      int
	Sizes    Sizes
	Prose    int // paragraph and list-item chunks of the kinds whose small pieces merge
	UnderMin int // those of them under Min
}

// Add counts one chunk.
func (t *SizeTally) Add(c Chunk) {
	n := c.TokenCount
	if t.Unit != "tokens" {
		n = utf8.RuneCountInString(c.Text)
	}
	t.Sizes.Add(string(c.Kind)+"/"+string(c.Element), n)
	if (c.Element == ElementParagraph || c.Element == ElementListItem) && c.Kind.Rules().MergesSmall() {
		t.Prose++
		if n < t.Min {
			t.UnderMin++
		}
	}
}
