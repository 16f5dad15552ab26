package stages

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
)

// TestEditCopiesRowGroups (issue 34, item 2): a run after an edit copies
// the previous snapshot's row groups that only documents taken whole make
// up, instead of encoding their rows again, and its chunks.parquet has the
// bytes of a run from scratch. Before, every row was encoded again, the
// most of an edit's cost.
func TestEditCopiesRowGroups(t *testing.T) {
	t.Parallel()
	base := map[string]string{}
	for d := range 500 {
		var b strings.Builder
		fmt.Fprintf(&b, "# Beach %d\nSource: https://example.org/beach/%d\n\n", d, d)
		for p := range 6 {
			fmt.Fprintf(&b, "## Part %d\n\nThe water at beach %d is calm in part %d of the day. Swim between the flags and ask the lifeguard.\n\n", p, d, p)
		}
		base[fmt.Sprintf("beach-%03d.md", d)] = b.String()
	}
	edits := map[string]string{"beach-060.md": base["beach-060.md"] + "A new sentence at the end of the page.\n"}
	for _, tt := range []struct {
		name   string
		edits  map[string]string
		misses int // chunks whose vector is not reused: the edited one
	}{
		{"a page edited", edits, 1},
		{"a page gone", map[string]string{"beach-033.md": ""}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, dir := filepath.Join(t.TempDir(), "snap"), t.TempDir()
			for name, text := range base {
				write(t, filepath.Join(dir, name), text)
			}
			mustRun(t, testConfig(dir, out, 2), Options{})
			for name, text := range tt.edits { // in place: a run in another folder is another config
				if text == "" {
					remove(t, filepath.Join(dir, name))
				} else {
					write(t, filepath.Join(dir, name), text)
				}
			}
			edited := dir
			var log bytes.Buffer
			res := mustRun(t, testConfig(edited, out, 2), Options{Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))})
			// The previous rows are read without their vectors; an edited
			// page's unchanged chunks still reuse theirs (reuseFor fills them).
			if misses := res.Manifest.Counts.Chunks - res.Manifest.Calls.VectorsReused; misses != tt.misses {
				t.Errorf("%d chunks without a reused vector (of %d), want %d", misses, res.Manifest.Counts.Chunks, tt.misses)
			}
			scratch := filepath.Join(t.TempDir(), "scratch")
			mustRun(t, testConfig(edited, scratch, 2), Options{})
			a, _ := os.ReadFile(filepath.Join(out, artifacts.ChunksFile))
			b, _ := os.ReadFile(filepath.Join(scratch, artifacts.ChunksFile))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("the edit's chunks.parquet (%d bytes) differs from a run from scratch (%d bytes)", len(a), len(b))
			}
			m := regexp.MustCompile(`"row groups copied"=(\d+)`).FindStringSubmatch(log.String())
			if m == nil {
				t.Fatalf("no row groups copied logged: %s", log.String())
			}
			if n, _ := strconv.Atoi(m[1]); n == 0 {
				t.Errorf("got no row group copied, want those the edit did not touch; log: %s", log.String())
			}
		})
	}
}
