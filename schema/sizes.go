package schema

import (
	"encoding/json"
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

// MarshalJSON writes the counts of each group as [size, count] pairs in
// size order: how a part hands its tally to its merge.
func (s Sizes) MarshalJSON() ([]byte, error) {
	out := map[string][][2]int{}
	for g, h := range s.by {
		for _, n := range slices.Sorted(maps.Keys(h)) {
			out[g] = append(out[g], [2]int{n, h[n]})
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (s *Sizes) UnmarshalJSON(b []byte) error {
	var in map[string][][2]int
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*s = Sizes{}
	for g, pairs := range in {
		for _, p := range pairs {
			s.add(g, p[0], p[1])
		}
	}
	return nil
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
	Unit     string `json:"unit"`
	Min      int    `json:"min"`
	Sizes    Sizes  `json:"sizes"`
	Prose    int    `json:"prose"`           // paragraph and list-item chunks of the kinds whose small pieces merge
	UnderMin int    `json:"prose_under_min"` // those of them under Min
}

// Merge adds o's counts to t: two parts' tallies make the one of their
// rows together.
func (t *SizeTally) Merge(o SizeTally) {
	t.Sizes.Merge(o.Sizes)
	t.Prose += o.Prose
	t.UnderMin += o.UnderMin
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
