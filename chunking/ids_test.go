package chunking

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestNewChunkerValidates(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"zero max", Config{Unit: "chars", Max: 0}},
		{"overlap equal to max", Config{Unit: "chars", Max: 10, Overlap: 10}},
		{"negative overlap", Config{Unit: "chars", Max: 10, Overlap: -1}},
		{"min over max", Config{Unit: "chars", Max: 10, Min: 11}},
		{"unknown unit", Config{Unit: "words", Max: 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewChunker(tt.cfg, ""); err == nil {
				t.Errorf("got no error for %+v, want one", tt.cfg)
			}
		})
	}
}

// TestChunkIDName: a chunk id is the UUIDv5 of
// tenant\x00source\x00path\x00hash\x00repeat, also when one document's ids
// reuse a hasher and a buffer.
func TestChunkIDName(t *testing.T) {
	tests := []struct {
		name, tenant, source, path, hash string
		repeat                           int
	}{
		{"no tenant", "", "docs", "a.md", "abc", 0},
		{"tenant", "tenant-a", "books", "docs/praia/ondas.md", "e3b0c442", 1},
		{"repeat over 9", "t", "", "a.md", "abc", 12},
		{"long path", "t", "repo", strings.Repeat("pasta/", 40) + "ção.md", strings.Repeat("f", 64), 3},
	}
	ids := newIdentities("", "", "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := uuid.NewSHA1(idSpace, []byte(tt.tenant+"\x00"+tt.source+"\x00"+tt.path+"\x00"+tt.hash+"\x00"+strconv.Itoa(tt.repeat))).String()
			if got := ChunkID(tt.tenant, tt.source, tt.path, tt.hash, tt.repeat); got != want {
				t.Errorf("ChunkID: got %s, want %s", got, want)
			}
			if got := ids.chunkID(tt.tenant, tt.source, tt.path, tt.hash, tt.repeat); got != want {
				t.Errorf("reused: got %s, want %s", got, want)
			}
		})
	}
}

// TestDocIDPerSource: two sources of one tenant that hold the same path
// name two documents (their rows collided in pgvector), and the tenant is
// part of the id too; the name is pinned.
func TestDocIDPerSource(t *testing.T) {
	const tenant = "6f0b8e2c-4a1d-5c3e-9b7f-2d8a1e4c6b50"
	books, repo := DocID(tenant, "books", "README.md"), DocID(tenant, "repo", "README.md")
	if books == repo {
		t.Errorf("README.md of books and of repo: got one doc_id %s, want two", books)
	}
	if other := DocID("", "books", "README.md"); other == books {
		t.Errorf("no tenant and tenant %s: got one doc_id %s, want two", tenant, books)
	}
	want := uuid.NewSHA1(idSpace, []byte("doc\x00"+tenant+"\x00books\x00README.md")).String()
	if books != want {
		t.Errorf("got %s, want %s", books, want)
	}
}
