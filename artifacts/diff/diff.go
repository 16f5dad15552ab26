package diff

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/schema"
)

// Diff compares two snapshots: see DiffContext.
func Compare(oldDir, newDir string) (*Report, error) {
	return CompareContext(context.Background(), oldDir, newDir)
}

// DiffContext compares the snapshot in oldDir with the one in newDir. Both
// chunks.parquet files are sorted by (doc_path, chunk_order), so the diff is
// one merge of the two by document: memory holds one document's chunks of
// each side at a time, plus the report, never a whole snapshot. A missing or
// unreadable snapshot is an error that names it.
func CompareContext(ctx context.Context, oldDir, newDir string) (*Report, error) {
	oldM, err := artifacts.ReadManifest(oldDir)
	if err != nil {
		return nil, fmt.Errorf("old snapshot %s: %w", oldDir, err)
	}
	newM, err := artifacts.ReadManifest(newDir)
	if err != nil {
		return nil, fmt.Errorf("new snapshot %s: %w", newDir, err)
	}
	oldR, err := openDocReader(ctx, oldDir, oldM)
	if err != nil {
		return nil, fmt.Errorf("old snapshot %s: %w", oldDir, err)
	}
	defer oldR.close()
	newR, err := openDocReader(ctx, newDir, newM)
	if err != nil {
		return nil, fmt.Errorf("new snapshot %s: %w", newDir, err)
	}
	defer newR.close()

	r := &Report{Old: refOf(oldM), New: refOf(newM), Components: componentChanges(oldM, newM)}
	if err := mergeDocs(oldR, newR, func(d DocDiff) { r.Documents = append(r.Documents, d) }); err != nil {
		return nil, err
	}
	for _, side := range []struct {
		name string
		m    artifacts.Manifest
		r    *docReader
	}{{"old", oldM, oldR}, {"new", newM, newR}} {
		if err := described(side.m, side.r); err != nil {
			return nil, fmt.Errorf("%s snapshot %s: %w", side.name, side.r.dir, err)
		}
	}
	r.Documents = withEmptyDocuments(r.Documents, oldM.EmptyDocuments, newM.EmptyDocuments)
	var oldEmpty, newEmpty int
	oldR.tally.Documents, oldEmpty = documentCount(oldM, oldR.tally.Documents)
	newR.tally.Documents, newEmpty = documentCount(newM, newR.tally.Documents)
	r.Counts = countDeltas(oldR.tally, newR.tally, oldEmpty, newEmpty)
	r.tally()
	return r, nil
}

// mergeDocs walks both snapshots in path order and hands every document
// that differs to emit.
func mergeDocs(oldR, newR *docReader, emit func(DocDiff)) error {
	o, err := oldR.next()
	if err != nil {
		return err
	}
	n, err := newR.next()
	if err != nil {
		return err
	}
	for o != nil || n != nil {
		switch {
		case n == nil || o != nil && o[0].DocPath < n[0].DocPath:
			emit(removedDoc(o))
			o, err = oldR.next()
		case o == nil || n[0].DocPath < o[0].DocPath:
			emit(addedDoc(n))
			n, err = newR.next()
		default:
			if d, ok := compareDoc(o, n); ok {
				emit(d)
			}
			if o, err = oldR.next(); err == nil {
				n, err = newR.next()
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// docReader reads a chunks.parquet one document at a time, checking the
// order the merge relies on, and counts what it reads. A merge pulls from
// two files in step, and artifacts.ChunkFile.Each pushes: iter.Pull2 turns Each into
// a pull without a goroutine of ours, one row group in memory per file.
type docReader struct {
	dir   string
	cf    *artifacts.ChunkFile
	pull  func() (schema.Chunk, error, bool)
	stop  func()
	ahead *schema.Chunk // the first row of the next document
	last  schema.Chunk  // the last row read, for the order check
	rows  int
	tally verify.Tally
}

// described returns an error unless m says what r's rows added up to and
// what the files it hashes recorded of its run: the diff reports the rows,
// and a manifest that says otherwise would have it say "No changes" of a
// snapshot its consumers read as another.
func described(m artifacts.Manifest, r *docReader) error {
	problems, err := verify.DeclaredDisagree(r.dir, m)
	if err != nil {
		return err
	}
	if m.Counts.Chunks != r.tally.Counts.Chunks {
		problems = append(problems, fmt.Sprintf("%d chunks, the manifest says %d", r.tally.Counts.Chunks, m.Counts.Chunks))
	}
	problems = append(problems, verify.CountsDisagree(m, r.tally)...)
	if len(problems) > 0 {
		return fmt.Errorf("its %s does not describe the snapshot (%s)", artifacts.ManifestFile, strings.Join(problems, "; "))
	}
	return nil
}

// errDiffStopped ends Each early when the reader is closed mid-file.
var errDiffStopped = errors.New("stopped")

func openDocReader(ctx context.Context, dir string, m artifacts.Manifest) (*docReader, error) {
	cf, err := artifacts.OpenChunksAs(dir, m)
	if err != nil {
		return nil, err
	}
	rows := func(yield func(schema.Chunk, error) bool) {
		err := cf.Each(ctx, func(c schema.Chunk) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			c.Embedding = nil // the diff compares hashes, never vectors
			if !yield(c, nil) {
				return errDiffStopped
			}
			return nil
		})
		if err != nil && !errors.Is(err, errDiffStopped) {
			yield(schema.Chunk{}, err)
		}
	}
	pull, stop := iter.Pull2(iter.Seq2[schema.Chunk, error](rows))
	return &docReader{dir: dir, cf: cf, pull: pull, stop: stop}, nil
}

// next returns the next document's chunks in order, or nil at the end.
func (r *docReader) next() ([]schema.Chunk, error) {
	var doc []schema.Chunk
	if r.ahead != nil {
		doc = append(doc, *r.ahead)
		r.ahead = nil
	}
	for {
		c, err, ok := r.pull()
		if !ok {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", r.dir, err)
		}
		if r.rows > 0 && !artifacts.RowBefore(r.last, c) {
			return nil, fmt.Errorf("snapshot %s: row %s after %s: not sorted by (doc_path, chunk_order)", r.dir, c.Key(), r.last.Key())
		}
		r.last = c
		r.rows++
		if len(doc) > 0 && c.DocPath != doc[0].DocPath {
			r.ahead = &c
			break
		}
		doc = append(doc, c)
	}
	for _, c := range doc {
		r.tally.Add(c)
	}
	return doc, nil
}

func (r *docReader) close() {
	r.stop()
	r.cf.Close()
}

// rowBefore reports whether a sorts strictly before b by (doc_path, chunk_order).
func refOf(m artifacts.Manifest) SnapshotRef {
	name, _ := artifacts.SnapshotName(m) // an old manifest without the parts has no name; the diff still runs
	return SnapshotRef{Name: name, SchemaVersion: m.SchemaVersion, CorpusFingerprint: m.CorpusFingerprint, ConfigHash: m.ConfigHash}
}

// componentChanges lists the manifest settings that differ, in a fixed order.
func componentChanges(o, n artifacts.Manifest) []ComponentChange {
	embedder := func(m artifacts.Manifest) string {
		return m.Embedder.Name + " (" + strconv.Itoa(m.Embedder.Dims) + " dims)"
	}
	budget := func(m artifacts.Manifest) string { return strconv.Itoa(m.ChunkMax) + " " + m.ChunkUnit }
	pairs := []ComponentChange{
		{"schema_version", o.SchemaVersion, n.SchemaVersion},
		{"embedder", embedder(o), embedder(n)},
		{"header_writer", o.HeaderWriter, n.HeaderWriter},
		{"tokenizer", o.Tokenizer, n.Tokenizer},
		{"chunk_budget", budget(o), budget(n)},
		{"config_hash", o.ConfigHash, n.ConfigHash},
	}
	var out []ComponentChange
	for _, p := range pairs {
		if p.Old != p.New {
			out = append(out, p)
		}
	}
	return out
}

// countDeltas builds the before/after table: documents, chunks and
// thresholds, then chunks per kind and per language in schema order (any
// value outside the closed sets after, sorted).
func countDeltas(o, n verify.Tally, oldEmpty, newEmpty int) []CountDelta {
	out := []CountDelta{{"documents", o.Documents, n.Documents}}
	if oldEmpty > 0 || newEmpty > 0 {
		out = append(out, CountDelta{"documents without chunks", oldEmpty, newEmpty})
	}
	out = append(out, CountDelta{"chunks", o.Counts.Chunks, n.Counts.Chunks}, CountDelta{"thresholds", o.Thresholds, n.Thresholds})
	kinds := make([]string, len(schema.Kinds))
	for i, k := range schema.Kinds {
		kinds[i] = string(k)
	}
	langs := make([]string, len(schema.Langs))
	for i, l := range schema.Langs {
		langs[i] = string(l)
	}
	out = append(out, keyedDeltas("kind ", kinds, o.Counts.ByKind, n.Counts.ByKind)...)
	return append(out, keyedDeltas("lang ", langs, o.Counts.ByLang, n.Counts.ByLang)...)
}

func keyedDeltas(prefix string, known []string, o, n map[string]int) []CountDelta {
	var extra []string
	for _, m := range []map[string]int{o, n} {
		for k := range m {
			if !slices.Contains(known, k) && !slices.Contains(extra, k) {
				extra = append(extra, k)
			}
		}
	}
	sort.Strings(extra)
	var out []CountDelta
	for _, k := range append(slices.Clone(known), extra...) {
		if o[k] != 0 || n[k] != 0 {
			out = append(out, CountDelta{prefix + k, o[k], n[k]})
		}
	}
	return out
}
