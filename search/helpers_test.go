package search

import (
	"context"
	"testing"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// testDims is small: the tests need vectors, not capacity.
const testDims = 256

// chunk is a chunk of doc with only what searching reads.
func chunk(doc string, lang schema.Lang, kind schema.Kind, beach, text string) schema.Chunk {
	return schema.Chunk{ChunkID: doc, DocPath: doc, Lang: lang, Kind: kind, BeachID: beach, SourceLabel: "ocean", Text: text}
}

// embedded builds an index whose chunks carry built-in embeddings, as the
// pipeline would write them.
func embedded(t *testing.T, chunks ...schema.Chunk) *Index {
	t.Helper()
	emb := lexical.NewBuiltin(testDims)
	for i := range chunks {
		vs, err := emb.Embed(context.Background(), []string{lexical.EmbedInput(chunks[i])})
		if err != nil {
			t.Fatal(err)
		}
		chunks[i].Embedding = vs[0]
	}
	return New(emb, chunks...)
}

func docs(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.DocPath
	}
	return out
}
