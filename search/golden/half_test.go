package golden

import (
	"slices"
	"strings"
	"testing"
)

// TestHalf: the dev half is the questions whose id's FNV-1a hash is even,
// the held-out half the rest; together the whole set, in its order.
func TestHalf(t *testing.T) {
	// FNV-1a, 32 bits: "a" 0xe40c292c (even), "b" 0xe70c2de5 (odd),
	// "c" 0xe60c2c52 (even), "d" 0xe10c2473 (odd).
	qs := &Set{Version: 1, Corpus: "c"}
	for _, id := range []string{"a", "b", "c", "d"} {
		qs.Questions = append(qs.Questions, Question{ID: id})
	}
	tests := []struct {
		half    string
		want    []string
		wantErr string
	}{
		{"", []string{"a", "b", "c", "d"}, ""},
		{HalfDev, []string{"a", "c"}, ""},
		{HalfHeldOut, []string{"b", "d"}, ""},
		{"test", nil, `half "test": want dev or held-out`},
	}
	for _, tt := range tests {
		t.Run(tt.half, func(t *testing.T) {
			got, err := qs.Half(tt.half)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, q := range got.Questions {
				ids = append(ids, q.ID)
			}
			if !slices.Equal(ids, tt.want) {
				t.Errorf("got %v, want %v", ids, tt.want)
			}
		})
	}
	if _, err := (&Set{Questions: []Question{{ID: "b"}}}).Half(HalfDev); err == nil {
		t.Errorf("got no error for an empty half, want one")
	}
}
