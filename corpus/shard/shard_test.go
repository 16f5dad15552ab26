package shard

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ocean-safety/ingest/corpus"
)

// TestShardOf: every path, listed or not, is in exactly one shard; the
// listed documents are split into runs in path order, as even as whole
// documents make them.
func TestShardOf(t *testing.T) {
	listing := func(n int) corpus.Listing {
		var l corpus.Listing
		for i := range n {
			l.Docs = append(l.Docs, fmt.Sprintf("docs/%04d.md", i*2)) // gaps: docs/0001.md is not listed
		}
		return l
	}
	tests := []struct {
		docs, shards int
	}{
		{4000, 2}, {4000, 3}, {4000, 8}, {10, 4}, {3, 8}, {1, 4}, {0, 4}, {7, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d docs in %d", tt.docs, tt.shards), func(t *testing.T) {
			l := listing(tt.docs)
			probes := slices.Clone(l.Docs)
			for i := range tt.docs + 1 { // between and around the listed documents: gone ones
				probes = append(probes, fmt.Sprintf("docs/%04d.md", i*2-1), fmt.Sprintf("docs/%04d.mdx", i*2))
			}
			probes = append(probes, "", "a", "zzz")
			for _, p := range probes {
				in := 0
				for k := range tt.shards {
					if (Shard{Index: k, Count: tt.shards}).Of(l).Has(p) {
						in++
					}
				}
				if in != 1 {
					t.Fatalf("%q is in %d of %d shards", p, in, tt.shards)
				}
			}
			var all []string
			for k := range tt.shards {
				part := Shard{Index: k, Count: tt.shards}.Select(l).Docs
				if lo, hi := tt.docs/tt.shards, (tt.docs+tt.shards-1)/tt.shards; len(part) < lo || len(part) > hi {
					t.Errorf("shard %d holds %d documents, want %d to %d", k, len(part), lo, hi)
				}
				all = append(all, part...) // shard after shard: the listing again, in order
			}
			if !slices.Equal(all, l.Docs) {
				t.Errorf("the shards' documents, shard after shard, are not the listing in order")
			}
		})
	}
}

// TestShardHasBeforeOf: a shard not bounded by a listing cannot tell.
func TestShardHasBeforeOf(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Has before Of did not panic")
		}
	}()
	Shard{Index: 1, Count: 2}.Has("a.md")
}
