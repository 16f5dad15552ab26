package artifacts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/ocean-safety/ingest/schema"
)

// The checks of Verify, in the order it runs and reports them.
const (
	CheckManifest      = "manifest"       // manifest.json reads and names what the others need
	CheckFiles         = "files"          // every recorded file is there with its size and SHA-256
	CheckSchemaVersion = "schema_version" // manifest and file agree, and this build reads it
	CheckParquet       = "parquet"        // chunks.parquet opens and every row reads
	CheckRows          = "rows"           // row count: file footer, rows read, manifest
	CheckDims          = "dims"           // every embedding has the manifest's dimensions
	CheckOrder         = "order"          // rows sorted by (doc_path, chunk_order)
	CheckUniqueIDs     = "unique_ids"     // no chunk_id twice
	CheckContentHash   = "content_hash"   // content_hash is the SHA-256 of text
	CheckCounts        = "counts"         // per kind, language and element; documents; thresholds
)

// CheckStatus is the outcome of one check.
type CheckStatus string

// The outcomes of a check.
const (
	CheckOK      CheckStatus = "ok"
	CheckFailed  CheckStatus = "failed"
	CheckSkipped CheckStatus = "skipped" // what it needs failed an earlier check
)

// maxProblems bounds what one check lists: a corrupt file must not flood the
// output with a line per row. The rest is counted.
const maxProblems = 10

// Check is one named check of a snapshot and what it found.
type Check struct {
	Name     string      `json:"name"`
	Status   CheckStatus `json:"status"`
	Detail   string      `json:"detail,omitempty"`   // what was checked
	Problems []string    `json:"problems,omitempty"` // at most maxProblems
	More     int         `json:"more,omitempty"`     // problems past those
}

func (c *Check) problem(format string, a ...any) {
	if len(c.Problems) < maxProblems {
		c.Problems = append(c.Problems, fmt.Sprintf(format, a...))
	} else {
		c.More++
	}
}

// VerifyReport is every check of one snapshot, failed or not.
type VerifyReport struct {
	Dir    string  `json:"dir"`
	Checks []Check `json:"checks"`
}

// OK reports whether no check failed: the snapshot can be trusted.
func (r *VerifyReport) OK() bool { return len(r.Failed()) == 0 }

// Failed returns the names of the failed checks.
func (r *VerifyReport) Failed() []string {
	var out []string
	for _, c := range r.Checks {
		if c.Status == CheckFailed {
			out = append(out, c.Name)
		}
	}
	return out
}

// Problems returns every problem found, as "check: problem".
func (r *VerifyReport) Problems() []string {
	var out []string
	for _, c := range r.Checks {
		for _, p := range c.Problems {
			out = append(out, c.Name+": "+p)
		}
		if c.More > 0 {
			out = append(out, fmt.Sprintf("%s: and %d more", c.Name, c.More))
		}
	}
	return out
}

// Check returns the check of that name (a zero Check if there is none).
func (r *VerifyReport) Check(name string) Check {
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	return Check{}
}

// Verify re-reads the snapshot in dir and checks it against its manifest:
// see VerifyContext.
func Verify(dir string) (*VerifyReport, error) { return VerifyContext(context.Background(), dir) }

// VerifyContext runs every check on the snapshot in dir and returns them
// all, so a caller (a person, or a run deciding whether a previous snapshot
// can be reused) sees every problem, not the first. A problem with the
// snapshot is a failed check; the error is for a dir that is not there or a
// cancelled context.
func VerifyContext(ctx context.Context, dir string) (*VerifyReport, error) {
	if info, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("verify %s: %w", dir, err)
	} else if !info.IsDir() {
		return nil, fmt.Errorf("verify %s: not a folder", dir)
	}
	v := verifier{dir: dir}
	v.manifest()
	v.files()
	if err := v.chunks(ctx); err != nil {
		return nil, fmt.Errorf("verify %s: %w", dir, err)
	}
	return &VerifyReport{Dir: dir, Checks: []Check{v.cManifest, v.cFiles, v.cSchema, v.cParquet,
		v.rows.cRows, v.rows.cDims, v.rows.cOrder, v.rows.cIDs, v.rows.cHash, v.rows.cCounts}}, nil
}

// verifier runs the checks of one snapshot.
type verifier struct {
	dir                                  string
	m                                    *Manifest // nil when unreadable
	cManifest, cFiles, cSchema, cParquet Check
	rows                                 rowChecks
}

func (v *verifier) manifest() {
	v.cManifest = Check{Name: CheckManifest}
	m, err := ReadManifest(v.dir)
	if err != nil {
		v.cManifest.problem("%v", err)
	} else {
		v.m = &m
		if m.SchemaVersion == "" {
			v.cManifest.problem("no schema_version")
		}
		if _, ok := m.Files[ChunksFile]; !ok {
			v.cManifest.problem("files has no %s", ChunksFile)
		}
		if m.Embedder.Dims < 1 {
			v.cManifest.problem("embedder dims %d", m.Embedder.Dims)
		}
		v.cManifest.Detail = fmt.Sprintf("schema %s, embedder %s (%d dims), run %s", m.SchemaVersion, m.Embedder.Name, m.Embedder.Dims, m.RunID)
	}
	settle(&v.cManifest)
}

func (v *verifier) files() {
	v.cFiles = Check{Name: CheckFiles}
	if v.m == nil {
		v.cFiles.Status = CheckSkipped
		return
	}
	names := make([]string, 0, len(v.m.Files))
	for name := range v.m.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		want := v.m.Files[name]
		if name != filepath.Base(name) || strings.HasPrefix(name, ".") {
			v.cFiles.problem("%s: not a file name of the snapshot", name)
			continue
		}
		got, err := Describe(filepath.Join(v.dir, name))
		switch {
		case err != nil:
			v.cFiles.problem("%s: %v", name, err)
		case got.Bytes != want.Bytes || got.SHA256 != want.SHA256:
			v.cFiles.problem("%s: %d bytes, sha256 %s; manifest says %d bytes, sha256 %s",
				name, got.Bytes, shortHash(got.SHA256), want.Bytes, shortHash(want.SHA256))
		}
	}
	v.cFiles.Detail = fmt.Sprintf("%d files, sizes and SHA-256", len(names))
	settle(&v.cFiles)
}

// chunks opens chunks.parquet and runs the checks that read its rows.
func (v *verifier) chunks(ctx context.Context) error {
	v.cParquet = Check{Name: CheckParquet}
	v.cSchema = Check{Name: CheckSchemaVersion, Detail: "this build reads " + SchemaVersion}
	if v.m != nil && v.m.SchemaVersion != SchemaVersion {
		v.cSchema.problem("manifest says %q, this build reads %q", v.m.SchemaVersion, SchemaVersion)
	}
	v.rows = newRowChecks(v.m)
	cf, err := openAnyVersion(filepath.Join(v.dir, ChunksFile))
	if err != nil {
		v.cParquet.problem("%v", err)
		settle(&v.cParquet)
		settle(&v.cSchema)
		v.rows.skip()
		return nil
	}
	defer cf.Close()
	if v.m == nil {
		v.rows.dims = cf.Dims
	}
	if cf.SchemaVersion != SchemaVersion {
		v.cSchema.problem("%s says %q, this build reads %q", ChunksFile, cf.SchemaVersion, SchemaVersion)
	}
	if v.m != nil && cf.SchemaVersion != v.m.SchemaVersion {
		v.cSchema.problem("%s says %q, the manifest %q", ChunksFile, cf.SchemaVersion, v.m.SchemaVersion)
	}
	settle(&v.cSchema)
	err = cf.Each(ctx, func(c schema.Chunk) error {
		v.rows.row(c)
		return ctx.Err()
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	v.cParquet.Detail = fmt.Sprintf("%d rows read", v.rows.n)
	if err != nil {
		v.cParquet.problem("after %d rows: %v", v.rows.n, err)
		settle(&v.cParquet)
		v.rows.skip() // what was read is not the file: its counts would only mislead
		return nil
	}
	settle(&v.cParquet)
	v.rows.finish(cf)
	return nil
}

// openAnyVersion opens a chunks.parquet like OpenChunks but whatever its
// schema version: verify reports a wrong version as a failed check, and
// must read the file's version to do so.
func openAnyVersion(path string) (_ *ChunkFile, err error) {
	defer recoverAs(&err, "read "+path)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	pr, err := file.NewParquetReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	cf := &ChunkFile{f: f, pr: pr, Rows: pr.NumRows()}
	md := pr.MetaData().KeyValueMetadata()
	if s := md.FindValue("ingest.schema_version"); s != nil {
		cf.SchemaVersion = *s
	}
	if s := md.FindValue("ingest.embedding_dims"); s != nil {
		cf.Dims, _ = strconv.Atoi(*s)
	}
	return cf, nil
}

// settle marks a check failed if it found a problem, ok otherwise.
func settle(c *Check) {
	if len(c.Problems) > 0 {
		c.Status = CheckFailed
	} else {
		c.Status = CheckOK
	}
}

// contentHash is the hex SHA-256 of a chunk's text, its identity.
func contentHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// rowChecks are the checks that read every row, in one pass.
type rowChecks struct {
	m                                          *Manifest // nil: compare rows with each other only
	dims                                       int
	n, docs, thresholds                        int
	last                                       schema.Chunk
	ids                                        map[[16]byte]struct{} // a hash of each id: 16 bytes a row, not the id
	got                                        Counts
	cRows, cDims, cOrder, cIDs, cHash, cCounts Check
}

func newRowChecks(m *Manifest) rowChecks {
	r := rowChecks{m: m, ids: map[[16]byte]struct{}{},
		cRows: Check{Name: CheckRows}, cDims: Check{Name: CheckDims}, cOrder: Check{Name: CheckOrder},
		cIDs: Check{Name: CheckUniqueIDs}, cHash: Check{Name: CheckContentHash}, cCounts: Check{Name: CheckCounts}}
	if m != nil {
		r.dims = m.Embedder.Dims
	}
	return r
}

func (r *rowChecks) row(c schema.Chunk) {
	if r.n > 0 && !rowBefore(r.last, c) {
		r.cOrder.problem("%s after %s", c.Key(), r.last.Key())
	}
	if r.n == 0 || c.DocPath != r.last.DocPath {
		r.docs++
	}
	id := sha256.Sum256([]byte(c.ChunkID))
	if _, dup := r.ids[[16]byte(id[:16])]; dup {
		r.cIDs.problem("%s again at %s", c.ChunkID, c.Key())
	}
	r.ids[[16]byte(id[:16])] = struct{}{}
	if h := contentHash(c.Text); h != c.ContentHash {
		r.cHash.problem("%s: content_hash %s, its text hashes to %s", c.Key(), shortHash(c.ContentHash), shortHash(h))
	}
	if r.dims > 0 && len(c.Embedding) != r.dims {
		r.cDims.problem("%s: %d dimensions, want %d", c.Key(), len(c.Embedding), r.dims)
	}
	r.got.Add(c)
	r.thresholds += len(c.Thresholds)
	c.Embedding = nil // the order check keeps the last row, not its vector
	r.last = c
	r.n++
}

// finish compares what the rows add up to with the file's footer and the manifest.
func (r *rowChecks) finish(cf *ChunkFile) {
	if int64(r.n) != cf.Rows {
		r.cRows.problem("%d rows read, the footer says %d", r.n, cf.Rows)
	}
	if r.m != nil {
		if want := r.m.Files[ChunksFile].Rows; want != r.n {
			r.cRows.problem("%d rows, files.%s.rows says %d", r.n, ChunksFile, want)
		}
		if want := r.m.Counts.Chunks; want != r.n {
			r.cRows.problem("%d rows, counts.chunks says %d", r.n, want)
		}
		if cf.Dims != r.m.Embedder.Dims {
			r.cDims.problem("%s metadata says %d dimensions, the manifest %d", ChunksFile, cf.Dims, r.m.Embedder.Dims)
		}
		r.compareCounts()
	}
	r.cRows.Detail = strconv.Itoa(r.n) + " rows"
	r.cDims.Detail = strconv.Itoa(r.dims) + " dimensions"
	r.cOrder.Detail = "(doc_path, chunk_order)"
	r.cIDs.Detail = strconv.Itoa(len(r.ids)) + " distinct chunk ids"
	r.cHash.Detail = "SHA-256 of text"
	r.cCounts.Detail = fmt.Sprintf("%d documents, %d thresholds; per kind, lang, element", r.docs, r.thresholds)
	for _, c := range []*Check{&r.cRows, &r.cDims, &r.cOrder, &r.cIDs, &r.cHash, &r.cCounts} {
		settle(c)
	}
}

// compareCounts checks the manifest's counts against the rows. A document
// may yield no chunk, so the file can hold fewer documents than the manifest
// counts, never more.
func (r *rowChecks) compareCounts() {
	want := r.m.Counts
	for _, g := range []struct {
		name      string
		got, want map[string]int
	}{{"kind", r.got.ByKind, want.ByKind}, {"lang", r.got.ByLang, want.ByLang}, {"element", r.got.ByElement, want.ByElement}} {
		var keys []string
		for _, m := range []map[string]int{g.got, g.want} {
			for k := range m {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			if g.got[k] != g.want[k] {
				r.cCounts.problem("%s %s: %d chunks, the manifest says %d", g.name, k, g.got[k], g.want[k])
			}
		}
	}
	if r.docs > want.Documents {
		r.cCounts.problem("%d documents, the manifest says %d", r.docs, want.Documents)
	}
	if f, ok := r.m.Files[ThresholdsFile]; ok && f.Rows != r.thresholds {
		r.cCounts.problem("%d thresholds, files.%s.rows says %d", r.thresholds, ThresholdsFile, f.Rows)
	}
}

// skip marks every row check skipped: the rows could not all be read.
func (r *rowChecks) skip() {
	for _, c := range []*Check{&r.cRows, &r.cDims, &r.cOrder, &r.cIDs, &r.cHash, &r.cCounts} {
		c.Status, c.Problems, c.More = CheckSkipped, nil, 0
	}
}
