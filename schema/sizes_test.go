package schema

import (
	"encoding/json"
	"testing"
)

func TestSizes(t *testing.T) {
	var s Sizes
	for _, n := range []int{5, 1, 9, 3, 7, 2, 8, 4, 6, 10} {
		s.Add("prose/paragraph", n)
	}
	s.Add("prose/code_block", 100)
	tests := []struct {
		name  string
		group string
		want  SizeStats
	}{
		{"one group", "prose/paragraph", SizeStats{Count: 10, P10: 1, Median: 5, P90: 9, Max: 10}},
		{"all", "", SizeStats{Count: 11, P10: 2, Median: 6, P90: 10, Max: 100}},
		{"none", "lore/paragraph", SizeStats{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Stats(tt.group); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	// Two tallies merged give the figures of one over the same sizes.
	var a, b Sizes
	for i := 1; i <= 10; i++ {
		if i%2 == 0 {
			a.Add("prose/paragraph", i)
		} else {
			b.Add("prose/paragraph", i)
		}
	}
	a.Merge(b)
	if got, want := a.Stats("prose/paragraph"), s.Stats("prose/paragraph"); got != want {
		t.Errorf("merged: got %+v, want %+v", got, want)
	}
	// Written as JSON and read back (a part's tally, for its merge), the
	// counts are the same; the pairs are in size order.
	b1, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Sizes
	if err := json.Unmarshal(b1, &back); err != nil {
		t.Fatal(err)
	}
	if b2, _ := json.Marshal(back); string(b2) != string(b1) || back.Stats("") != s.Stats("") {
		t.Errorf("read back: got %s, wrote %s", b2, b1)
	}
	if want := `{"prose/code_block":[[100,1]],"prose/paragraph":[[1,1],[2,1],[3,1],[4,1],[5,1],[6,1],[7,1],[8,1],[9,1],[10,1]]}`; string(b1) != want {
		t.Errorf("got %s, want %s", b1, want)
	}
}

func TestSizeTally(t *testing.T) {
	tests := []struct {
		name               string
		unit               string
		c                  Chunk
		size, prose, under int
	}{
		{"characters, not bytes", "chars", Chunk{Kind: KindProse, Element: ElementParagraph, Text: "água", TokenCount: 9}, 4, 1, 1},
		{"tokens", "tokens", Chunk{Kind: KindProse, Element: ElementListItem, Text: "água", TokenCount: 9}, 9, 1, 1},
		{"a safety rule is never a fragment", "chars", Chunk{Kind: KindSafety, Element: ElementListItem, Text: "short"}, 5, 0, 0},
		{"a lore paragraph is never a fragment", "chars", Chunk{Kind: KindLore, Element: ElementParagraph, Text: "short"}, 5, 0, 0},
		{"a kind not in the table is not counted", "chars", Chunk{Kind: "poetry", Element: ElementParagraph, Text: "short"}, 5, 0, 0},
		{"code is not prose", "chars", Chunk{Kind: KindProse, Element: ElementCodeBlock, Text: "x"}, 1, 0, 0},
		{"at the minimum", "chars", Chunk{Kind: KindStructured, Element: ElementParagraph, Text: "0123456789"}, 10, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := SizeTally{Unit: tt.unit, Min: 10}
			st.Add(tt.c)
			got := st.Sizes.Stats("")
			if got.Max != tt.size || st.Prose != tt.prose || st.UnderMin != tt.under {
				t.Errorf("got size %d, prose %d, under min %d; want %d, %d, %d", got.Max, st.Prose, st.UnderMin, tt.size, tt.prose, tt.under)
			}
		})
	}
}
