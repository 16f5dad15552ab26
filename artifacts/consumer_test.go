//go:build duckdb

package artifacts_test

import (
	"cmp"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// These tests (build tag duckdb: the DuckDB bindings need cgo and a C
// toolchain, and 131 MB; .ci/run runs them with -tags duckdb) read a
// snapshot the way consumers do, with DuckDB and
// consumers/chunks_view.sql, not with this package's reader: a layout that
// arrow-go reads back happily but DuckDB types differently fails here.

const consumerDims = 1024 // the width consumers/chunks_view.sql casts to

// consumerChunks is a small snapshot by hand: every kind and language, null
// and set tenant and beach, nested section paths, quantities and thresholds.
func consumerChunks() []schema.Chunk {
	en, pt := schema.LangEN, schema.LangPT
	surf := schema.Quantity{Surface: "1.5 m", Value: 1.5, Unit: "m", Dimension: "length", SIValue: 1.5, SIUnit: "m", Start: 10, End: 15}
	wind := schema.Quantity{Surface: "20 kn", Value: 20, Unit: "kn", Dimension: "speed", SIValue: 10.289, SIUnit: "m/s", Start: 4, End: 9}
	chunks := []schema.Chunk{
		{DocPath: "en/beaches/praia-mole.md", Kind: schema.KindLore, Lang: en, Element: schema.ElementParagraph, BeachID: "praia-mole", SectionPath: []string{"Praia Mole"}, Text: "Praia Mole faces the open Atlantic."},
		{DocPath: "en/beaches/praia-mole.md", Kind: schema.KindLore, Lang: en, Element: schema.ElementParagraph, BeachID: "praia-mole", SectionPath: []string{"Praia Mole", "History"}, Text: "Surfers found it in the seventies."},
		{DocPath: "en/guide/intro.md", Kind: schema.KindProse, Lang: en, Element: schema.ElementSectionHeading, TenantID: "ocean-co", SectionPath: []string{}, Text: "Reading the sea"},
		{DocPath: "en/guide/intro.md", Kind: schema.KindProse, Lang: en, Element: schema.ElementParagraph, TenantID: "ocean-co", SectionPath: []string{"Reading the sea", "Swell"}, Text: "Swell is wind energy travelling far."},
		{DocPath: "en/guide/intro.md", Kind: schema.KindProse, Lang: en, Element: schema.ElementCodeBlock, TenantID: "ocean-co", SectionPath: []string{"Reading the sea", "Swell", "Data"}, Text: "period_s = 12"},
		{DocPath: "en/safety/rip-currents.md", Kind: schema.KindSafety, Lang: en, Element: schema.ElementListItem, Safety: true, SectionPath: []string{"Rip currents"}, Text: "Swim parallel to the shore."},
		{DocPath: "en/safety/rip-currents.md", Kind: schema.KindSafety, Lang: en, Element: schema.ElementListItem, Safety: true, SectionPath: []string{"Rip currents"}, Text: "Surf above 1.5 m is hazardous.",
			Quantities: []schema.Quantity{surf},
			Thresholds: []schema.Threshold{{Subject: "surf_height", Comparator: schema.ComparatorAbove, Value: 1.5, SIUnit: "m", Surface: "1.5 m", Sentence: "Surf above 1.5 m is hazardous.", Hazard: "hazardous", Line: 7, Origin: "rule"}}},
		{DocPath: "en/safety/rip-currents.md", Kind: schema.KindSafety, Lang: en, Element: schema.ElementListItem, Safety: true, TenantID: "ocean-co", SectionPath: []string{"Rip currents", "Flags"}, Text: "A red flag closes the beach.", LeadIn: "Never swim when:"},
		{DocPath: "en/tides/table.md", Kind: schema.KindStructured, Lang: en, Element: schema.ElementTableRow, BeachID: "joaquina", SectionPath: []string{"Tides"}, Text: "Time: 06:10; Height: 1.8 m"},
		{DocPath: "en/tides/table.md", Kind: schema.KindStructured, Lang: en, Element: schema.ElementTableRow, BeachID: "joaquina", SectionPath: []string{"Tides"}, Text: "Time: 18:40; Height: 0.3 m"},
		{DocPath: "pt-BR/seguranca/ondas.md", Kind: schema.KindSafety, Lang: pt, Element: schema.ElementParagraph, Safety: true, TenantID: "ocean-co", SectionPath: []string{"Segurança", "Ondas"}, Text: "Ondas entre 1 e 2 m exigem atenção.",
			Quantities: []schema.Quantity{surf},
			Thresholds: []schema.Threshold{{Subject: "surf_height", Comparator: schema.ComparatorBetween, Value: 1, Value2: 2, SIUnit: "m", Surface: "1 e 2 m", Sentence: "Ondas entre 1 e 2 m exigem atenção.", Line: 3, Origin: "rule"}}},
		{DocPath: "pt-BR/seguranca/vento.md", Kind: schema.KindSafety, Lang: pt, Element: schema.ElementParagraph, Safety: true, SectionPath: []string{"Vento"}, Text: "Com 20 kn de vento, fique fora.",
			Quantities: []schema.Quantity{wind}},
	}
	order := map[string]int{}
	for i := range chunks {
		c := &chunks[i]
		c.Order = order[c.DocPath]
		order[c.DocPath]++
		sum := sha256.Sum256([]byte(c.Text))
		c.ContentHash = hex.EncodeToString(sum[:])
		c.ChunkID = fmt.Sprintf("00000000-0000-5000-8000-%012d", i)
		c.DocID = fmt.Sprintf("d0c00000-0000-5000-8000-%012d", len(order))
		c.DocVersion = "v1"
		c.DocTitle = strings.TrimSuffix(filepath.Base(c.DocPath), ".md")
		c.SourceURL = "https://example.org/" + c.DocPath
		c.SourceLabel = "ocean"
		c.LineStart, c.LineEnd = 2*c.Order+1, 2*c.Order+1
		c.ByteStart, c.ByteEnd = 100*c.Order, 100*c.Order+len(c.Text)
		c.TokenCount = len(c.Text) / 4
		c.ContextHeader = c.DocPath + ": " + c.Text
		c.HeaderSource = schema.HeaderExtractive
		c.Embedding = unitVector(uint64(i))
	}
	return chunks
}

// unitVector is a deterministic pseudo-random L2-normalised vector, distinct
// for every seed: random directions in 1024 dimensions are nearly orthogonal,
// so each chunk's nearest neighbour must be itself.
func unitVector(seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 0x1024))
	v := make([]float64, consumerDims)
	var norm float64
	for i := range v {
		v[i] = r.NormFloat64()
		norm += v[i] * v[i]
	}
	norm = math.Sqrt(norm)
	out := make([]float32, consumerDims)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

// consumerSnapshot writes chunks with the real writer and returns the path
// of the file and a DuckDB session with consumers/chunks_view.sql loaded.
func consumerSnapshot(t *testing.T, chunks []schema.Chunk, dims int) (string, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), artifacts.ChunksFile)
	w, err := artifacts.NewChunkWriter(path, dims)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if err := w.Write(c); err != nil {
			w.Abort()
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := sql.Open("duckdb", "") // in memory; the macro lives in its catalog
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	view, err := os.ReadFile(filepath.Join("..", "consumers", "chunks_view.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(view)); err != nil {
		t.Fatalf("load chunks_view.sql: %v", err)
	}
	return path, db
}

// describe returns the column names and DuckDB types of query.
func describe(t *testing.T, db *sql.DB, query, path string) (names, types []string) {
	t.Helper()
	rows, err := db.Query("SELECT column_name, column_type FROM (DESCRIBE "+query+")", path)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			t.Fatal(err)
		}
		names, types = append(names, name), append(types, typ)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return names, types
}

func TestConsumerColumnTypes(t *testing.T) {
	path, db := consumerSnapshot(t, consumerChunks(), consumerDims)
	const (
		quantity  = `STRUCT(surface VARCHAR, "value" DOUBLE, unit VARCHAR, dimension VARCHAR, si_value DOUBLE, si_unit VARCHAR, "start" INTEGER, "end" INTEGER, char_start INTEGER, char_end INTEGER)[]`
		threshold = `STRUCT(subject VARCHAR, comparator VARCHAR, "value" DOUBLE, value2 DOUBLE, si_unit VARCHAR, surface VARCHAR, sentence VARCHAR, hazard VARCHAR, line INTEGER, origin VARCHAR)[]`
	)
	// view is the type through ingest_chunks, where it differs from raw.
	tests := []struct{ name, raw, view string }{
		{name: "chunk_id", raw: "VARCHAR"},
		{name: "content_hash", raw: "VARCHAR"},
		{name: "doc_id", raw: "VARCHAR"},
		{name: "doc_path", raw: "VARCHAR"},
		{name: "doc_version", raw: "VARCHAR"},
		{name: "doc_title", raw: "VARCHAR"},
		{name: "source_url", raw: "VARCHAR"},
		{name: "source_label", raw: "VARCHAR"},
		{name: "tenant_id", raw: "VARCHAR"},
		{name: "lang", raw: "VARCHAR"},
		{name: "kind", raw: "VARCHAR"},
		{name: "element", raw: "VARCHAR"},
		{name: "safety", raw: "BOOLEAN"},
		{name: "beach_id", raw: "VARCHAR"},
		{name: "section_path", raw: "VARCHAR[]"},
		{name: "chunk_order", raw: "INTEGER"},
		{name: "text", raw: "VARCHAR"},
		{name: "line_start", raw: "INTEGER"},
		{name: "line_end", raw: "INTEGER"},
		{name: "byte_start", raw: "BIGINT"},
		{name: "byte_end", raw: "BIGINT"},
		{name: "token_count", raw: "INTEGER"},
		{name: "context_header", raw: "VARCHAR"},
		{name: "header_source", raw: "VARCHAR"},
		{name: "hazard", raw: "VARCHAR"},
		{name: "place", raw: "VARCHAR"},
		{name: "season", raw: "VARCHAR"},
		{name: "unsourced_claim", raw: "VARCHAR"},
		{name: "embedding", raw: "FLOAT[]", view: "FLOAT[1024]"},
		{name: "quantities", raw: quantity},
		{name: "thresholds", raw: threshold},
		{name: "metadata", raw: "MAP(VARCHAR, VARCHAR[])"},
		{name: "lead_in", raw: "VARCHAR"},
		{name: "header_rejects", raw: "VARCHAR[]"},
		{name: "search_text", raw: "VARCHAR"},
	}
	rawNames, rawTypes := describe(t, db, "SELECT * FROM read_parquet(?)", path)
	viewNames, viewTypes := describe(t, db, "SELECT * FROM ingest_chunks(?)", path)
	if len(rawNames) != len(tests) || len(viewNames) != len(tests) {
		t.Fatalf("got %d columns raw and %d through the view, want %d", len(rawNames), len(viewNames), len(tests))
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := cmp.Or(tt.view, tt.raw)
			if rawNames[i] != tt.name || rawTypes[i] != tt.raw {
				t.Errorf("read_parquet column %d: got %s %s, want %s %s", i, rawNames[i], rawTypes[i], tt.name, tt.raw)
			}
			if viewNames[i] != tt.name || viewTypes[i] != want {
				t.Errorf("ingest_chunks column %d: got %s %s, want %s %s", i, viewNames[i], viewTypes[i], tt.name, want)
			}
		})
	}
}

func TestConsumerCounts(t *testing.T) {
	chunks := consumerChunks()
	path, db := consumerSnapshot(t, chunks, consumerDims)
	tests := []struct {
		name, where string
		want        int
	}{
		{"rows", "true", len(chunks)},
		{"embeddings not 1024 wide", "len(embedding) <> 1024", 0},
		{"null tenant_id", "tenant_id IS NULL", 7},
		{"null beach_id", "beach_id IS NULL", 8},
		{"empty section_path", "section_path = []", 1},
		{"with quantities", "len(quantities) > 0", 3},
		{"with a between threshold", "list_contains([t.value2 IS NOT NULL FOR t IN thresholds], true)", 1},
		{"with a null value2", "list_contains([t.value2 IS NULL FOR t IN thresholds], true)", 1},
		{"with a lead-in", "lead_in = 'Never swim when:'", 1},
		{"without a lead-in (null)", "lead_in IS NULL", len(chunks) - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got int
			if err := db.QueryRow("SELECT count(*) FROM read_parquet(?) WHERE "+tt.where, path).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("count where %s: got %d, want %d", tt.where, got, tt.want)
			}
		})
	}
}

func TestConsumerRows(t *testing.T) {
	chunks := consumerChunks()
	path, db := consumerSnapshot(t, chunks, consumerDims)
	rows, err := db.Query(`SELECT chunk_id, tenant_id, beach_id, safety, section_path, chunk_order, byte_start, embedding
		FROM ingest_chunks(?) ORDER BY doc_path, chunk_order`, path)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for i := 0; rows.Next(); i++ {
		want := chunks[i]
		var (
			id              string
			tenant, beach   sql.NullString
			safety          bool
			section, vector []any
			order, start    int
		)
		if err := rows.Scan(&id, &tenant, &beach, &safety, &section, &order, &start, &vector); err != nil {
			t.Fatal(err)
		}
		t.Run(want.Key(), func(t *testing.T) {
			if id != want.ChunkID {
				t.Errorf("chunk_id: got %s, want %s", id, want.ChunkID)
			}
			if tenant.Valid != (want.TenantID != "") || tenant.String != want.TenantID {
				t.Errorf("tenant_id: got %+v, want %q (null when empty)", tenant, want.TenantID)
			}
			if beach.Valid != (want.BeachID != "") || beach.String != want.BeachID {
				t.Errorf("beach_id: got %+v, want %q (null when empty)", beach, want.BeachID)
			}
			if safety != want.Safety || order != want.Order || start != want.ByteStart {
				t.Errorf("safety, chunk_order, byte_start: got %v %d %d, want %v %d %d", safety, order, start, want.Safety, want.Order, want.ByteStart)
			}
			if got := asStrings(section); !slices.Equal(got, want.SectionPath) {
				t.Errorf("section_path: got %q, want %q", got, want.SectionPath)
			}
			if len(vector) != consumerDims {
				t.Fatalf("embedding: got %d floats, want %d", len(vector), consumerDims)
			}
			for j, v := range vector {
				if v != want.Embedding[j] {
					t.Fatalf("embedding[%d]: got %v, want %v", j, v, want.Embedding[j])
				}
			}
		})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

func asStrings(vs []any) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// TestConsumerSimilarity runs the nearest-neighbour query of
// chunks_view.sql for every chunk: each must find itself first.
func TestConsumerSimilarity(t *testing.T) {
	chunks := consumerChunks()
	path, db := consumerSnapshot(t, chunks, consumerDims)
	const query = `SELECT chunk_id, array_cosine_similarity(embedding, (
			SELECT embedding FROM ingest_chunks($1) WHERE chunk_id = $2)) AS score
		FROM ingest_chunks($1) ORDER BY score DESC LIMIT 2`
	for _, c := range chunks {
		t.Run(c.Key(), func(t *testing.T) {
			rows, err := db.Query(query, path, c.ChunkID)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var ids []string
			var scores []float64
			for rows.Next() {
				var id string
				var score float64
				if err := rows.Scan(&id, &score); err != nil {
					t.Fatal(err)
				}
				ids, scores = append(ids, id), append(scores, score)
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if len(ids) != 2 || ids[0] != c.ChunkID || ids[1] == c.ChunkID {
				t.Fatalf("top neighbours: got %v, want %s first", ids, c.ChunkID)
			}
			if math.Abs(scores[0]-1) > 1e-5 || scores[1] > 0.5 {
				t.Errorf("scores: got %.6f then %.6f, want 1 then below 0.5", scores[0], scores[1])
			}
		})
	}
}

func TestConsumerKeyValueMetadata(t *testing.T) {
	path, db := consumerSnapshot(t, consumerChunks(), consumerDims)
	rows, err := db.Query("SELECT decode(key), decode(value) FROM parquet_kv_metadata(?)", path)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	kv := map[string][]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		kv[k] = append(kv[k], v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ key, want string }{
		{"ingest.schema_version", artifacts.SchemaVersion},
		{"ingest.embedding_dims", fmt.Sprint(consumerDims)},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			// Every copy must agree: readers differ on which of a repeated key wins.
			got := kv[tt.key]
			if len(got) == 0 || slices.ContainsFunc(got, func(v string) bool { return v != tt.want }) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestConsumerOtherWidth checks the promise of chunks_view.sql that a
// snapshot of another width fails the cast rather than comparing vectors of
// different sizes.
func TestConsumerOtherWidth(t *testing.T) {
	const dims = 8
	chunks := consumerChunks()[:2]
	for i := range chunks {
		chunks[i].Embedding = chunks[i].Embedding[:dims]
	}
	path, db := consumerSnapshot(t, chunks, dims)
	var first float32
	err := db.QueryRow("SELECT embedding[1] FROM ingest_chunks(?) LIMIT 1", path).Scan(&first)
	if err == nil || !strings.Contains(err.Error(), "Cannot cast") {
		t.Fatalf("got embedding[1] = %v, error %v through a %d-wide view of a %d-wide file, want a cast error", first, err, consumerDims, dims)
	}
}
