package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
)

// TestShrinkGuardNaN (issue 31, item 7): publish.max_shrink: .nan no longer
// switches the shrink guard off. Before, a 1-document corpus replaced the
// 29 documents of corpus/ocean's latest, exit 0. Now index and merge both
// refuse the setting (exit 2, naming it) and latest stays.
func TestShrinkGuardNaN(t *testing.T) {
	root := t.TempDir()
	pub := filepath.Join(root, "pub")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", "../../corpus/ocean", "--publish", pub, "--quiet"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	before, err := publish.Latest(pub)
	if err != nil {
		t.Fatal(err)
	}
	one := writeFiles(t, filepath.Join(root, "one"), map[string]string{"only.md": "# Only\nSource: https://example.org/only\n\nOne document left.\n"})
	for _, v := range []string{".nan", ".NaN", ".inf", "-.inf", "1.5", "-0.1"} {
		t.Run(v, func(t *testing.T) {
			cfg := filepath.Join(root, "c.yaml")
			os.WriteFile(cfg, []byte("publish: {max_shrink: "+v+"}\n"), 0o644)
			code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", one, "--publish", pub, "--config", cfg, "--quiet")
			if code != exitUsage || !strings.Contains(stderr, "publish.max_shrink") {
				t.Errorf("index: got exit %d, %q; want exit %d naming publish.max_shrink", code, stderr, exitUsage)
			}
			if after, _ := publish.Latest(pub); after != before {
				t.Errorf("latest: got %s, want %s kept", after, before)
			}
			code, _, stderr = runCLI(context.Background(), "", "merge", "--config", cfg, "--publish", pub, filepath.Join(root, "no-such-part"))
			if code != exitUsage || !strings.Contains(stderr, "publish.max_shrink") {
				t.Errorf("merge: got exit %d, %q; want exit %d naming publish.max_shrink", code, stderr, exitUsage)
			}
		})
	}
	m, err := artifacts.ReadManifest(before)
	if err != nil || m.Counts.Documents != 29 {
		t.Errorf("latest: got %d documents (%v), want corpus/ocean's 29", m.Counts.Documents, err)
	}
}

// TestBadLabelsRefused (issue 31, item 7): a source_label that is not one
// printable line in NFC is refused at start, naming the key, so it never
// reaches a chunk, a sync's plan or a database. Before, a newline in it
// forged an output line of sync --plan, a NUL published and then failed
// the sync with SQLSTATE 22021, and "src1 ", "src1\u200b" and "src1" made
// three scopes.
func TestBadLabelsRefused(t *testing.T) {
	root := t.TempDir()
	for i, label := range []string{`src1\n::error::forged`, `src1\0`, `src1 `, `src1\u200b`, `\u2028src1`, `cafe\u0301`} {
		cfg := filepath.Join(root, "c.yaml")
		os.WriteFile(cfg, []byte(`source_label: "`+label+`"`+"\n"), 0o644)
		out := filepath.Join(root, "out", strings.Repeat("x", i+1))
		code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", out, "--config", cfg, "--quiet")
		if code != exitUsage || !strings.Contains(stderr, "source_label: ") {
			t.Errorf("%s: got exit %d, %q; want exit %d naming source_label", label, code, stderr, exitUsage)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: got %s written", label, out)
		}
	}
}

// TestMinRecallNaN: --min-recall NaN is refused, as 1.5 is; before, the
// gate compared recall < NaN, never true, and always passed.
func TestMinRecallNaN(t *testing.T) {
	for _, v := range []string{"NaN", "+Inf", "-1"} {
		code, _, stderr := runCLI(context.Background(), "", "eval", "--snapshot", "no-such", "--questions", "../../corpus/ocean.golden.json", "--min-recall", v)
		if code != exitUsage || !strings.Contains(stderr, "--min-recall") {
			t.Errorf("--min-recall %s: got exit %d, %q; want exit %d naming it", v, code, stderr, exitUsage)
		}
	}
}

// TestSeparatorNames (issue 31, item 7): a file or folder whose name holds
// a line or paragraph separator (U+2028, U+2029) is skipped with a warning
// that names it escaped, as a control character is; before, the name
// reached doc_path, where a log viewer or a consumer's JavaScript breaks
// the line.
func TestSeparatorNames(t *testing.T) {
	root := t.TempDir()
	c := copyCorpus(t, filepath.Join(root, "corpus"))
	for _, n := range []string{"line\u2028sep.md", "para\u2029sep/inside.md"} {
		p := filepath.Join(c, n)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("# Sep\nSource: https://example.org/s\n\nText.\n"), 0o644); err != nil {
			t.Skip("this file system refuses the name:", err)
		}
	}
	snap := filepath.Join(root, "snap")
	code, stdout, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", snap, "--verbose")
	if code != exitOK {
		t.Fatalf("got exit %d: %s", code, stderr)
	}
	for _, want := range []string{`line\u2028sep.md`, `para\u2029sep`} {
		if !strings.Contains(stderr, want) || !strings.Contains(stderr, "name-control-character") {
			t.Errorf("got no warning naming %s:\n%s", want, stderr)
		}
	}
	if strings.ContainsAny(stdout+stderr, "\u2028\u2029") {
		t.Errorf("got a raw separator printed:\n%s%s", stdout, stderr)
	}
	chunks, err := artifacts.ReadChunks(filepath.Join(snap, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range chunks {
		if strings.ContainsAny(ch.DocPath, "\u2028\u2029") {
			t.Errorf("got doc_path %q stored", ch.DocPath)
		}
	}
}
