package verify

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// A manifest is written last and nothing hashes it, so what it says of the
// snapshot is checked against what does: its rows, and the files it hashes
// (the audit log's last event, the report). Here are those rules, once, for
// Verify, VerifyFiles and the readers that count rows anyway (diff).

// Tally is what a snapshot's rows add up to, counted in file order.
type Tally struct {
	Counts     artifacts.Counts // chunks, by kind, language and element
	Documents  int              // documents with a row (the rows are in doc_path order)
	Thresholds int
	last       string
}

// Add counts one row.
func (t *Tally) Add(c schema.Chunk) {
	if t.Counts.Chunks == 0 || c.DocPath != t.last {
		t.Documents++
	}
	t.last = c.DocPath
	t.Counts.Add(c)
	t.Thresholds += len(c.Thresholds)
}

// CountsDisagree lists where m's counts are not what the rows add up to:
// chunks per kind, language and element, documents, thresholds. A
// document may yield no chunk, so the rows can hold fewer documents than
// the manifest counts, never more (its audit log says how many: see
// DeclaredDisagree).
func CountsDisagree(m artifacts.Manifest, t Tally) []string {
	var out []string
	for _, g := range []struct {
		name      string
		got, want map[string]int
	}{{"kind", t.Counts.ByKind, m.Counts.ByKind}, {"lang", t.Counts.ByLang, m.Counts.ByLang}, {"element", t.Counts.ByElement, m.Counts.ByElement}} {
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
				out = append(out, fmt.Sprintf("%s %s: %d chunks, the manifest says %d", g.name, k, g.got[k], g.want[k]))
			}
		}
	}
	if t.Documents > m.Counts.Documents {
		out = append(out, fmt.Sprintf("%d documents, the manifest says %d", t.Documents, m.Counts.Documents))
	}
	if f, ok := m.Files[artifacts.ThresholdsFile]; ok && f.Rows != t.Thresholds {
		out = append(out, fmt.Sprintf("%d thresholds, files.%s.rows says %d", t.Thresholds, artifacts.ThresholdsFile, f.Rows))
	}
	return out
}

// DeclaredDisagree lists where the manifest m of the snapshot in dir is not
// what the files it hashes say, read no further than it declares them: the
// counts its run recorded as it completed (audit.jsonl), the diagnostics
// its report holds, the header writer and embedder its reuse keys name.
// Call it once the files are known to be those m describes; a snapshot of
// a version without a file or a key is not held to it.
func DeclaredDisagree(dir string, m artifacts.Manifest) ([]string, error) {
	out, _, err := declaredDisagree(dir, m)
	return out, err
}

// declaredDisagree is DeclaredDisagree, and whether the run recorded what
// its rows add up to (RecordsRows), from one read of its audit log.
func declaredDisagree(dir string, m artifacts.Manifest) (out []string, rows bool, err error) {
	if m.CacheKeys.Vector != "" && m.CacheKeys.Vector != artifacts.VectorCacheKey(m.Embedder) {
		out = append(out, fmt.Sprintf("embedder %s (%d dims), its vectors' reuse key says %q", m.Embedder.Name, m.Embedder.Dims, m.CacheKeys.Vector))
	}
	if k := m.CacheKeys.Header; k != "" && !isHeaderCacheKey(k, m.HeaderWriter) {
		out = append(out, fmt.Sprintf("header writer %s, its headers' reuse key says %q", m.HeaderWriter, k))
	}
	ran, err := ranCounts(dir, m)
	if err != nil {
		return nil, false, err
	}
	for _, k := range []struct {
		name string
		n    int
	}{{"documents", m.Counts.Documents}, {"rejected", m.Counts.Rejected}, {"chunks", m.Counts.Chunks}} {
		if got, ok := ran[k.name]; ok && got != k.n {
			out = append(out, fmt.Sprintf("counts.%s %d, its run recorded %d (%s)", k.name, k.n, got, artifacts.AuditFile))
		}
	}
	if rows = RecordsRows(ran); rows {
		out = append(out, rowsDisagree(m, ran)...)
	}
	if _, ok := m.Files[artifacts.ReportFile]; ok && m.Diagnostics != nil {
		rep, err := artifacts.ReadReport(dir)
		if err != nil {
			return nil, false, err
		}
		got, total := rep.DiagnosticCounts(), 0
		for _, sev := range []schema.Severity{schema.SeverityError, schema.SeverityWarning, schema.SeverityInfo} {
			total += got[string(sev)]
			if got[string(sev)] != m.Diagnostics[string(sev)] {
				out = append(out, fmt.Sprintf("diagnostics.%s %d, %s holds %d", sev, m.Diagnostics[string(sev)], artifacts.ReportFile, got[string(sev)]))
			}
		}
		if f, ok := m.Files[artifacts.DiagnosticsFile]; ok && f.Rows != total {
			out = append(out, fmt.Sprintf("files.%s.rows %d, %s counts %d diagnostics", artifacts.DiagnosticsFile, f.Rows, artifacts.ReportFile, total))
		}
	}
	return out, rows, nil
}

// Recorded is what a run records of its counts in audit.jsonl as it
// completes (the run_completed event): documents, rejected and chunks, and
// the chunks by kind, language and element under "by_kind.K", "by_lang.L"
// and "by_element.E". The audit log is hashed and the manifest is not: a
// reader checks the manifest's counts against these (DeclaredDisagree)
// without reading a row.
func Recorded(c artifacts.Counts) map[string]int {
	out := map[string]int{"documents": c.Documents, "rejected": c.Rejected, "chunks": c.Chunks}
	for name, m := range map[string]map[string]int{"by_kind": c.ByKind, "by_lang": c.ByLang, "by_element": c.ByElement} {
		for k, n := range m {
			out[name+"."+k] = n
		}
	}
	return out
}

// RecordsRows reports whether the counts a run recorded (ranCounts) hold
// what its rows add up to by kind, language and element
// (Recorded): a snapshot of an ingest before them records the
// totals only, and only reading its rows checks the rest of its manifest.
func RecordsRows(ran map[string]int) bool {
	n, ok := ran["chunks"]
	kinds := n == 0 // no row: nothing by kind to record
	for k := range ran {
		kinds = kinds || strings.HasPrefix(k, "by_kind.")
	}
	return ok && kinds
}

// rowsDisagree lists where m's counts by kind, language and element, and
// the rows files.chunks.parquet declares, are not what its run recorded.
func rowsDisagree(m artifacts.Manifest, ran map[string]int) []string {
	var out []string
	want := Recorded(m.Counts)
	keys := slices.Sorted(maps.Keys(want))
	for _, k := range slices.Sorted(maps.Keys(ran)) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if strings.HasPrefix(k, "by_") && want[k] != ran[k] {
			out = append(out, fmt.Sprintf("counts.%s %d, its run recorded %d (%s)", k, want[k], ran[k], artifacts.AuditFile))
		}
	}
	if f, ok := m.Files[artifacts.ChunksFile]; ok && f.Rows != ran["chunks"] {
		out = append(out, fmt.Sprintf("files.%s.rows %d, its run recorded %d chunks (%s)", artifacts.ChunksFile, f.Rows, ran["chunks"], artifacts.AuditFile))
	}
	return out
}

// Declared reads the manifest of the snapshot in dir and checks what it
// says of its run against what the files it hashes recorded
// (DeclaredDisagree), without hashing a file or reading a row: for a
// caller that knows the files' bytes are those the manifest records (it
// hashed them as it read or linked them). rows reports whether the run
// recorded what its rows add up to, so that the problems cover the
// manifest's counts as reading the rows would.
func Declared(dir string) (problems []string, rows bool, err error) {
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		return nil, false, err
	}
	if !artifacts.ReadsSchema(m.SchemaVersion) {
		problems = append(problems, fmt.Sprintf("manifest says schema %q, this build reads %q", m.SchemaVersion, artifacts.SchemaVersion))
	}
	more, rows, err := declaredDisagree(dir, m)
	return append(problems, more...), rows, err
}

// isHeaderCacheKey reports whether k is an artifacts.HeaderCacheKey of writer.
func isHeaderCacheKey(k, writer string) bool {
	_, n, ok := strings.Cut(strings.TrimPrefix(k, writer), "=")
	max, err := strconv.Atoi(n)
	return ok && err == nil && k == artifacts.HeaderCacheKey(writer, max)
}

// ranCounts returns the counts the run that made the snapshot in dir (m's
// run id) recorded in audit.jsonl as it completed; nil when the log records
// none (an older snapshot, or none kept).
func ranCounts(dir string, m artifacts.Manifest) (map[string]int, error) {
	info, ok := m.Files[artifacts.AuditFile]
	if !ok {
		return nil, nil
	}
	path := filepath.Join(dir, artifacts.AuditFile)
	f, err := artifacts.OpenDeclared(path, info.Bytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var counts map[string]int
	dec := json.NewDecoder(f)
	for {
		var e struct {
			Trace  string         `json:"trace_id"`
			Event  string         `json:"event"`
			Counts map[string]int `json:"counts"`
		}
		err := dec.Decode(&e)
		if errors.Is(err, io.EOF) {
			return counts, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if e.Event == "run_completed" && e.Trace == m.RunID {
			counts = e.Counts
		}
	}
}
