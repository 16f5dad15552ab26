package stages

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/diagnostics"
	"github.com/ocean-safety/ingest/schema"
)

// diagnosticCorpus writes n documents, each with a problem of one of four
// codes (a missing title, a table in prose, an oversize code block, a
// missing source: warning, warning, info, error), the oversize ones an
// unresolved include after it (found first, by the parser: their
// diagnostics come out of line order), over three folders, and a name with
// a control character (a diagnostic of the run's own listing).
func diagnosticCorpus(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		var s string
		switch i % 4 {
		case 0:
			s = fmt.Sprintf("Source: https://x.org/%d\n\nSome text without a title, about waves of 2 m.\n", i)
		case 1:
			s = fmt.Sprintf("# Doc %d\nSource: https://x.org/%d\n\nIntro.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", i, i)
		case 2:
			s = fmt.Sprintf("# Doc %d\nSource: https://x.org/%d\n\nCode:\n\n```\n%s```\n\n--8<-- \"missing.md\"\n", i, i, strings.Repeat("x = 1 # a line of code\n", 60))
		default:
			s = fmt.Sprintf("# Doc %d\n\nNo source here.\n", i)
		}
		if err := writeFile(filepath.Join(dir, fmt.Sprintf("d%d/doc%04d.md", i%3, i)), []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "bell\x07.md"), []byte("# Bell\nSource: https://x.org/b\n\nText.\n"), 0o644) // a file system that refuses the name has one diagnostic less
	return dir
}

// reported is a Reporter keeping every diagnostic a run reports.
type reported struct {
	mu    sync.Mutex
	diags []string
}

func (r *reported) Progress(string, int, int) {}
func (r *reported) Diagnostic(d schema.Diagnostic) {
	b, _ := json.Marshal(d)
	r.mu.Lock()
	r.diags = append(r.diags, string(b))
	r.mu.Unlock()
}

// TestDiagnosticsStreamed (issue 34, item 4): every diagnostic a run
// reports is a line of diagnostics.jsonl, none lost and none more, the
// run's own first and then in (path, line) order; report.json samples
// diagnostics.MaxSampled of each code and counts every one, the counts
// adding up to the file's lines and to the manifest's; the file is the
// same bytes at 1 and 4 workers, and an unchanged night republishes it as
// it was, an ignored code marked as the night's config says.
func TestDiagnosticsStreamed(t *testing.T) {
	t.Parallel()
	dir := diagnosticCorpus(t, 400)
	var files [][]byte
	var out string
	for _, workers := range []int{1, 4} {
		out = filepath.Join(t.TempDir(), "snap")
		rc := testConfig(dir, out, workers)
		rc.Diagnostics.Ignore = []string{"table-in-prose"}
		var seen reported
		res := mustRun(t, rc, Options{Reporter: &seen})
		b, err := os.ReadFile(filepath.Join(out, artifacts.DiagnosticsFile))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if got, want := sortedCopy(canonical(t, lines)), sortedCopy(seen.diags); !slices.Equal(got, want) {
			t.Fatalf("%d workers: got %d lines, want the %d diagnostics the run reported, each once", workers, len(got), len(want))
		}
		checkDiagnosticOrder(t, lines, res.Report.SetupDiagnostics)

		rep, err := artifacts.ReadReport(out)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(filepath.Join(out, artifacts.ReportFile))
		if info.Size() > 64<<10 {
			t.Errorf("%d workers: report.json is %d bytes, want at most 64 KiB for %d diagnostics", workers, info.Size(), len(lines))
		}
		sampled, counted := map[string]int{}, 0
		for _, d := range rep.Diagnostics {
			if sampled[d.Code]++; sampled[d.Code] > diagnostics.MaxSampled {
				t.Errorf("%d workers: report.json samples more than %d of %s", workers, diagnostics.MaxSampled, d.Code)
			}
		}
		for _, c := range rep.DiagnosticsByCode {
			counted += c.Count
			if c.Code == "table-in-prose" && c.Ignored != c.Count || c.Code != "table-in-prose" && c.Ignored != 0 {
				t.Errorf("%d workers: %s: %d of %d ignored, want only table-in-prose's, all", workers, c.Code, c.Ignored, c.Count)
			}
		}
		m := res.Manifest
		if counted != len(lines) || m.Files[artifacts.DiagnosticsFile].Rows != len(lines) || fmt.Sprint(rep.DiagnosticCounts()) != fmt.Sprint(m.Diagnostics) {
			t.Errorf("%d workers: the report counts %d, the manifest %d rows and %v; want the file's %d lines", workers, counted, m.Files[artifacts.DiagnosticsFile].Rows, m.Diagnostics, len(lines))
		}
		if len(sampled) != 5+min(res.Report.SetupDiagnostics, 1) || len(lines) < 5*diagnostics.MaxSampled {
			t.Errorf("%d workers: got %d codes, %d lines; the corpus should have every code past its sample", workers, len(sampled), len(lines))
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Errorf("diagnostics.jsonl differs at 1 and 4 workers")
	}

	// An unchanged night: the same file, the ignored code's lines as the
	// night's config marks them.
	for _, tt := range []struct {
		name   string
		ignore []string
		want   []byte
	}{
		{"the same config", []string{"table-in-prose"}, files[0]},
		{"table-in-prose no longer ignored", nil, bytes.ReplaceAll(files[0], []byte(`,"ignored":true`), nil)},
	} {
		rc := testConfig(dir, out, 2)
		rc.Diagnostics.Ignore = tt.ignore
		res := mustRun(t, rc, Options{})
		if res.Report.Stages[0].Name != "unchanged" {
			t.Fatalf("%s: the night rebuilt (%s), want a republish", tt.name, res.Report.Stages[0].Name)
		}
		got, _ := os.ReadFile(filepath.Join(out, artifacts.DiagnosticsFile))
		if !bytes.Equal(got, tt.want) {
			t.Errorf("%s: republished diagnostics.jsonl differs from what a build writes", tt.name)
		}
	}
}

// checkDiagnosticOrder checks lines hold the run's own setup diagnostics
// first, then the documents' by path, then line.
func checkDiagnosticOrder(t *testing.T, lines []string, setup int) {
	t.Helper()
	var prev schema.Diagnostic
	for i, l := range lines[setup:] {
		var d schema.Diagnostic
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatal(err)
		}
		if i > 0 && cmp.Or(strings.Compare(d.Path, prev.Path), cmp.Compare(d.Line, prev.Line)) < 0 {
			t.Fatalf("line %d: %s:%d after %s:%d, want (path, line) order", setup+i+1, d.Path, d.Line, prev.Path, prev.Line)
		}
		prev = d
	}
}

// canonical is lines decoded and encoded again as the Reporter's are.
func canonical(t *testing.T, lines []string) []string {
	t.Helper()
	out := make([]string, len(lines))
	for i, l := range lines {
		var d schema.Diagnostic
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(d)
		out[i] = string(b)
	}
	return out
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
