package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// The checks of Verify, in the order it runs and reports them.
const (
	CheckManifest      = "manifest"       // manifest.json reads and names what the others need
	CheckFiles         = "files"          // every recorded file is there with its size and SHA-256
	CheckDeclared      = "declared"       // the manifest says what its run recorded: counts, diagnostics, embedder and header writer
	CheckSchemaVersion = "schema_version" // manifest and file agree, and this build reads it
	CheckParquet       = "parquet"        // chunks.parquet opens and every row reads
	CheckRows          = "rows"           // row count: file footer, rows read, manifest
	CheckDims          = "dims"           // every embedding has the manifest's dimensions
	CheckOrder         = "order"          // rows sorted by (doc_path, chunk_order)
	CheckUniqueIDs     = "unique_ids"     // no chunk_id twice
	CheckContentHash   = "content_hash"   // content_hash is the SHA-256 of text
	CheckCounts        = "counts"         // per kind, language and element; documents; thresholds
	CheckUTF8          = "utf8"           // every string of every row is valid UTF-8 (DuckDB and Arrow readers refuse others)
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
	v.declared()
	if err := v.chunks(ctx); err != nil {
		return nil, fmt.Errorf("verify %s: %w", dir, err)
	}
	return &VerifyReport{Dir: dir, Checks: []Check{v.cManifest, v.cFiles, v.cDeclared, v.cSchema, v.cParquet,
		v.rows.cRows, v.rows.cDims, v.rows.cOrder, v.rows.cIDs, v.rows.cHash, v.rows.cCounts, v.rows.cUTF8}}, nil
}

// VerifyFiles is the cheap part of Verify: the manifest reads and names
// chunks.parquet, every file it lists is a regular file of the size and
// SHA-256 it records, and the manifest says what those files record of its
// run (its counts, diagnostics, embedder: CheckDeclared). A reader that trusts what it reads (diff, search,
// inspect, thresholds, a run reusing a previous snapshot) runs it first: it
// reads each file once and decodes no row. The error is a *BrokenError, or
// the error of a dir that is not there.
func VerifyFiles(dir string) (artifacts.Manifest, error) {
	if info, err := os.Stat(dir); err != nil {
		return artifacts.Manifest{}, err
	} else if !info.IsDir() {
		return artifacts.Manifest{}, fmt.Errorf("%s: not a folder", dir)
	}
	v := verifier{dir: dir}
	v.manifest()
	v.files()
	v.declared()
	rep := VerifyReport{Dir: dir, Checks: []Check{v.cManifest, v.cFiles, v.cDeclared}}
	if !rep.OK() {
		return artifacts.Manifest{}, &BrokenError{Dir: dir, Failed: rep.Failed(), Problems: rep.Problems()}
	}
	return *v.m, nil
}

// BrokenError is a snapshot that fails its manifest's checks: it must not
// be read as if it were what its manifest says.
type BrokenError struct {
	Dir      string
	Failed   []string // the checks that failed
	Problems []string // what they found, as "check: problem"
}

func (e *BrokenError) Error() string {
	return fmt.Sprintf("snapshot %s fails its manifest's checks (%s); ingest verify %s tells more", e.Dir, strings.Join(e.Problems, "; "), e.Dir)
}

// verifier runs the checks of one snapshot.
type verifier struct {
	dir                                             string
	m                                               *artifacts.Manifest // nil when unreadable
	cManifest, cFiles, cDeclared, cSchema, cParquet Check
	rows                                            rowChecks
}

func (v *verifier) manifest() {
	v.cManifest = Check{Name: CheckManifest}
	m, err := artifacts.ReadManifest(v.dir)
	if err != nil {
		v.cManifest.problem("%v", err)
	} else {
		v.m = &m
		if m.SchemaVersion == "" {
			v.cManifest.problem("no schema_version")
		}
		if _, ok := m.Files[artifacts.ChunksFile]; !ok {
			v.cManifest.problem("files has no %s", artifacts.ChunksFile)
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
		got, err := artifacts.DescribeDeclared(filepath.Join(v.dir, name), want.Bytes) // its size first: a file of another size is not read
		var size *artifacts.SizeError
		switch {
		case errors.As(err, &size):
			v.cFiles.problem("%s: %d bytes; manifest says %d bytes (not read)", name, size.Got, size.Want)
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

// declared checks what the manifest says of its run against what the files
// it hashes recorded (DeclaredDisagree): nothing hashes the manifest
// itself, and a reader believes its counts and its embedder.
func (v *verifier) declared() {
	v.cDeclared = Check{Name: CheckDeclared, Detail: "counts, diagnostics, embedder and header writer: audit, report, reuse keys"}
	if v.m == nil || v.cFiles.Status != CheckOK {
		v.cDeclared.Status = CheckSkipped // the files do not say what they should: they cannot vouch for it
		return
	}
	problems, err := DeclaredDisagree(v.dir, *v.m)
	if err != nil {
		problems = []string{err.Error()}
	}
	for _, p := range problems {
		v.cDeclared.problem("%s", p)
	}
	settle(&v.cDeclared)
}

// chunks opens chunks.parquet and runs the checks that read its rows.
func (v *verifier) chunks(ctx context.Context) error {
	v.cParquet = Check{Name: CheckParquet}
	v.cSchema = Check{Name: CheckSchemaVersion, Detail: "this build reads " + artifacts.SchemaVersion}
	if v.m != nil && !artifacts.ReadsSchema(v.m.SchemaVersion) {
		v.cSchema.problem("manifest says %q, this build reads %q", v.m.SchemaVersion, artifacts.SchemaVersion)
	}
	v.rows = newRowChecks(v.m)
	var cf *artifacts.ChunkFile
	var err error
	if v.m != nil {
		cf, err = artifacts.OpenAnyVersionAs(v.dir, *v.m) // no further than the manifest says
	} else {
		cf, err = artifacts.OpenAnyVersion(filepath.Join(v.dir, artifacts.ChunksFile))
	}
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
	if !artifacts.ReadsSchema(cf.SchemaVersion) {
		v.cSchema.problem("%s says %q, this build reads %q", artifacts.ChunksFile, cf.SchemaVersion, artifacts.SchemaVersion)
	}
	if v.m != nil && cf.SchemaVersion != v.m.SchemaVersion {
		v.cSchema.problem("%s says %q, the manifest %q", artifacts.ChunksFile, cf.SchemaVersion, v.m.SchemaVersion)
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
