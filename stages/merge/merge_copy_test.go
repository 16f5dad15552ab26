package merge

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages"
)

// TestMergeCopiesRowGroups (issue 34, item 5): a merge copies the parts'
// row groups that its file makes up whole instead of encoding their rows
// again, and its chunks.parquet is a whole run's, byte for byte. Each
// part is a run of the corpus in path order, so all but the row groups
// around a part's two ends are the part's own. Before, a part held every
// Nth document by path hash and the merge encoded every row again.
func TestMergeCopiesRowGroups(t *testing.T) {
	docs := map[string]string{}
	for d := range 2400 {
		var b strings.Builder
		fmt.Fprintf(&b, "# Beach %d\nSource: https://example.org/beach/%d\n\n", d, d)
		for p := range 6 {
			fmt.Fprintf(&b, "## Part %d\n\nThe water at beach %d is calm in part %d of the day. Swim between the flags and ask the lifeguard.\n\n", p, d, p)
		}
		docs[fmt.Sprintf("beach-%04d.md", d)] = b.String()
	}
	dir := t.TempDir()
	for name, text := range docs {
		if err := writeFile(filepath.Join(dir, name), []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := testConfig(dir, "", 2).Config
	opt := func() stages.Options { return stages.Options{ToolVersion: "test"} }
	whole := filepath.Join(t.TempDir(), "whole")
	if _, err := stages.Run(context.Background(), cfg, publish.OutTarget(whole, ""), opt()); err != nil {
		t.Fatal(err)
	}
	want := readFile(t, filepath.Join(whole, artifacts.ChunksFile))
	groups := func(dir string) int {
		cf, err := artifacts.OpenChunks(filepath.Join(dir, artifacts.ChunksFile))
		if err != nil {
			t.Fatal(err)
		}
		defer cf.Close()
		n := 0
		for row := int64(0); ; n++ {
			_, rows, ok := cf.GroupAt(row)
			if !ok {
				return n
			}
			row += rows
		}
	}
	for _, n := range []int{2, 4} {
		parts := runShards(t, cfg, n, t.TempDir(), opt, "")
		merged := filepath.Join(t.TempDir(), "merged")
		var log bytes.Buffer
		if _, err := Merge(context.Background(), parts, Config{}, publish.OutTarget(merged, ""), stages.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))}); err != nil {
			t.Fatalf("%d shards: %v", n, err)
		}
		if !bytes.Equal(readFile(t, filepath.Join(merged, artifacts.ChunksFile)), want) {
			t.Errorf("%d shards: the merge's chunks.parquet differs from the whole run's", n)
		}
		m := regexp.MustCompile(`"row groups copied"=(\d+)`).FindStringSubmatch(log.String())
		if m == nil {
			t.Fatalf("%d shards: no row groups copied logged: %s", n, log.String())
		}
		// A part's first row group is its file's head, and the groups
		// after where one part ends and the next begins are cut where
		// neither part cut them until the two cuts meet again at a
		// document both pick (2 and 4 shards leave 2 and 16 of 53 not
		// copied): at most five a part are not copied.
		copied, _ := strconv.Atoi(m[1])
		t.Logf("%d shards: %d of %d row groups copied", n, copied, groups(merged))
		if total := groups(merged); total < 8*n || copied < total-5*n {
			t.Errorf("%d shards: %d of %d row groups copied, want all but %d at most", n, copied, total, 5*n)
		}
	}
}
