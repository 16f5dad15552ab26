package stages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// A chunk's header and vector are reused, from the previous snapshot or the
// journal of an interrupted run, only under a key that covers everything
// that shaped them: for a header the writer (model digest, prompt version),
// its length cap, the document title and the chunk's content hash, section
// path, kind, language and element; for a vector the embedder (model digest),
// its dimensions and the exact text it embedded (which holds the header).

// cacheKeys returns the run-wide parts of the keys; they go in the manifest
// so the next run can key the rows of this snapshot.
func cacheKeys(h HeaderWriter, e Embedder, cfg Config) artifacts.CacheKeys {
	return artifacts.CacheKeys{
		Header: h.Name() + "|max_chars=" + strconv.Itoa(cfg.Header.MaxChars),
		Vector: e.Name() + "|dims=" + strconv.Itoa(e.Dims()),
	}
}

func headerKey(prefix, title string, c schema.Chunk) string {
	return digest(prefix, title, c.ContentHash, strings.Join(c.SectionPath, "\x1f"), string(c.Kind), string(c.Lang), string(c.Element))
}

func vectorKey(prefix, input string) string { return digest(prefix, input) }

func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// headerEntry is a reusable enrichment.
type headerEntry struct {
	Header     string             `json:"header"`
	Source     string             `json:"source"`
	Fields     schema.Fields      `json:"fields"`
	Thresholds []schema.Threshold `json:"thresholds,omitempty"` // the model's, grounded
}

// reuse is what one document's previous rows offer.
type reuse struct {
	headers map[string]headerEntry
	vectors map[string][]float32
	ids     []string // the previous chunk ids, to count what the new run supersedes
	version string   // the previous doc_version ("" when the document is new)
}

// previous is the last snapshot, read in step with the corpus.
type previous struct {
	dir      string
	manifest artifacts.Manifest
	file     *artifacts.ChunkFile
	cur      *artifacts.Cursor
}

// openPrevious opens the snapshot at dir for reuse after checking it is
// whole: a readable manifest of this schema version and a chunks.parquet
// whose hash is the manifest's. A snapshot that fails is not trusted; the
// problem comes back as the error, for the report.
func openPrevious(ctx context.Context, dir string) (*previous, error) {
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if m.SchemaVersion != artifacts.SchemaVersion {
		return nil, fmt.Errorf("schema version %q, want %q", m.SchemaVersion, artifacts.SchemaVersion)
	}
	path := filepath.Join(dir, artifacts.ChunksFile)
	info, err := artifacts.Describe(path)
	if err != nil {
		return nil, err
	}
	if want := m.Files[artifacts.ChunksFile]; info.SHA256 != want.SHA256 || info.Bytes != want.Bytes {
		return nil, fmt.Errorf("%s is not the file its manifest describes (%d bytes, want %d)", artifacts.ChunksFile, info.Bytes, want.Bytes)
	}
	f, err := artifacts.OpenChunks(path)
	if err != nil {
		return nil, err
	}
	if f.Rows != int64(m.Counts.Chunks) {
		f.Close()
		return nil, fmt.Errorf("%s holds %d rows, its manifest says %d", artifacts.ChunksFile, f.Rows, m.Counts.Chunks)
	}
	cur, err := f.Cursor(ctx)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &previous{dir: dir, manifest: m, file: f, cur: cur}, nil
}

// forDoc returns what the previous snapshot offers for the document at
// path, with the ids of chunks of documents that are gone.
func (p *previous) forDoc(path string) (reuse, []string, error) {
	gone, rows, err := p.cur.Until(path)
	if err != nil {
		return reuse{}, nil, err
	}
	return p.index(rows), gone, nil
}

// index keys a document's previous rows. Only real values are offered: a
// fallback header is never reused as if the model had written it, and a
// vector must have the dimensions the manifest promised.
func (p *previous) index(rows []schema.Chunk) reuse {
	r := reuse{headers: map[string]headerEntry{}, vectors: map[string][]float32{}}
	keys := p.manifest.CacheKeys
	for _, row := range rows {
		r.ids = append(r.ids, row.ChunkID)
		r.version = row.DocVersion
		if keys.Header != "" && row.ContextHeader != "" && row.HeaderSource != schema.HeaderExtractiveFallback {
			var model []schema.Threshold
			for _, t := range row.Thresholds {
				if t.Origin == "model" {
					model = append(model, t)
				}
			}
			r.headers[headerKey(keys.Header, row.DocTitle, row)] = headerEntry{row.ContextHeader, row.HeaderSource, row.Fields, model}
		}
		if keys.Vector != "" && len(row.Embedding) == p.manifest.Embedder.Dims && len(row.Embedding) > 0 {
			r.vectors[vectorKey(keys.Vector, EmbedInput(row))] = row.Embedding
		}
	}
	return r
}

// rest returns the ids of the chunks of every document after the last one asked for.
func (p *previous) rest() ([]string, error) { return p.cur.Rest() }

func (p *previous) close() {
	if p != nil {
		p.cur.Close()
		p.file.Close()
	}
}

// snapshotName is a previous snapshot's folder name in a publish layout, or
// "" when its manifest cannot give one.
func snapshotName(m artifacts.Manifest) string {
	name, err := artifacts.SnapshotName(m)
	if err != nil {
		return ""
	}
	return name
}
