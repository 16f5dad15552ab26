package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
)

// flipByte changes one byte in the middle of a file, keeping its size.
func flipByte(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPublishHeals: a publish folder whose latest is damaged or gone is
// repaired by the next run. Before, a run that found the same content
// already there skipped it as "identical" without verifying it (exit 0,
// "published"), and verify P/latest went on failing for good.
func TestPublishHeals(t *testing.T) {
	t.Parallel()
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	index := func(t *testing.T, pub string) string {
		t.Helper()
		code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--publish", pub)
		if code != exitOK {
			t.Fatalf("index: exit %d: %s", code, stderr)
		}
		return stderr
	}
	verifies := func(t *testing.T, pub string) {
		t.Helper()
		if code, stdout, stderr := runCLI(context.Background(), "", "verify", filepath.Join(pub, publish.LatestLink)); code != exitOK {
			t.Errorf("verify latest: exit %d: %s%s", code, stdout, stderr)
		}
	}
	latest := func(t *testing.T, pub string) string {
		t.Helper()
		l, err := publish.Latest(pub)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}

	t.Run("a byte of latest's chunks.parquet flipped", func(t *testing.T) {
		pub := filepath.Join(t.TempDir(), "pub")
		index(t, pub)
		broken := latest(t, pub)
		flipByte(t, filepath.Join(broken, artifacts.ChunksFile))
		damaged, _ := os.ReadFile(filepath.Join(broken, artifacts.ChunksFile))
		stderr := index(t, pub)
		if !strings.Contains(stderr, filepath.Base(broken)+" failed verification") || !strings.Contains(stderr, "moved aside to") ||
			strings.Contains(stderr, "identical to a snapshot already there") {
			t.Errorf("got stderr %q, want the broken snapshot named, replaced and moved aside", stderr)
		}
		verifies(t, pub)
		aside, _ := filepath.Glob(filepath.Join(pub, ".ingest", "broken", filepath.Base(broken)+"-*"))
		if len(aside) != 1 {
			t.Fatalf("got %v moved aside, want the broken snapshot kept once", aside)
		}
		if kept, err := os.ReadFile(filepath.Join(aside[0], artifacts.ChunksFile)); err != nil || !bytes.Equal(kept, damaged) {
			t.Errorf("the copy moved aside is not the damaged file (%v): evidence lost", err)
		}
		if stderr := index(t, pub); !strings.Contains(stderr, "identical to a snapshot already there, which verifies") {
			t.Errorf("the night after: got %q, want the repaired snapshot reused", stderr)
		}
	})

	t.Run("a killed heal: latest names the broken one of two copies", func(t *testing.T) {
		pub := filepath.Join(t.TempDir(), "pub")
		index(t, pub)
		good := latest(t, pub)
		_, key, _ := strings.Cut(filepath.Base(good), "-")
		copyTree(t, good, filepath.Join(pub, "20000101T000000Z-"+key)) // the same content, another time
		if err := publish.PromoteLatest(pub, "20000101T000000Z-"+key); err != nil {
			t.Fatal(err)
		}
		os.Truncate(filepath.Join(pub, "20000101T000000Z-"+key, artifacts.ReportFile), 10)
		stderr := index(t, pub)
		if got := latest(t, pub); got != good || !strings.Contains(stderr, "20000101T000000Z-"+key+" failed verification") {
			t.Errorf("got latest %s, stderr %q; want %s, the copy that verifies, and the other moved aside", got, stderr, good)
		}
		verifies(t, pub)
	})

	t.Run("latest's manifest miscounts its rows", func(t *testing.T) {
		pub := filepath.Join(t.TempDir(), "pub")
		index(t, pub)
		broken := latest(t, pub)
		m, err := artifacts.ReadManifest(broken)
		if err != nil {
			t.Fatal(err)
		}
		m.Counts.ByKind["prose"]--
		m.Counts.ByKind["safety"]++
		if err := artifacts.WriteJSON(filepath.Join(broken, artifacts.ManifestFile), m); err != nil {
			t.Fatal(err)
		}
		// An unchanged corpus republishes the previous files and copied
		// its counts: the run failed its own verification, every night.
		// Now the counts its run recorded in audit.jsonl, which is hashed,
		// tell at once that the manifest lies: the snapshot is not trusted
		// as the previous one, and no row is read to find it out.
		stderr := index(t, pub)
		if !strings.Contains(stderr, "counts.by_kind.prose 0, its run recorded 1 (audit.jsonl)") || !strings.Contains(stderr, filepath.Base(broken)+" failed verification") {
			t.Errorf("got stderr %q, want the previous snapshot's manifest reported and the snapshot replaced", stderr)
		}
		verifies(t, pub)
	})

	// A deleted manifest.json: every later run exited 2, "not an ingest
	// publish folder".
	for _, which := range []string{"latest's", "an older snapshot's"} {
		t.Run(which+" manifest deleted", func(t *testing.T) {
			pub := filepath.Join(t.TempDir(), "pub")
			index(t, pub)
			broken := latest(t, pub)
			if which != "latest's" {
				c2 := copyCorpus(t, filepath.Join(t.TempDir(), "corpus2"), "waves.md") // another snapshot, broken the older
				if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c2, "--publish", pub); code != exitOK {
					t.Fatalf("index: exit %d: %s", code, stderr)
				}
			}
			os.Remove(filepath.Join(broken, artifacts.ManifestFile))
			stderr := index(t, pub)
			if !strings.Contains(stderr, filepath.Base(broken)+" failed verification (manifest.json: missing)") || !strings.Contains(stderr, "moved aside to") {
				t.Errorf("got stderr %q, want the snapshot without a manifest moved aside", stderr)
			}
			verifies(t, pub)
			aside, _ := filepath.Glob(filepath.Join(pub, ".ingest", "broken", filepath.Base(broken)+"-*", artifacts.ChunksFile))
			if len(aside) != 1 {
				t.Errorf("got %v moved aside, want the snapshot's files kept once", aside)
			}
		})
	}

	t.Run("latest names a deleted snapshot", func(t *testing.T) {
		pub := filepath.Join(t.TempDir(), "pub")
		index(t, pub)
		os.RemoveAll(latest(t, pub))
		if code, _, _ := runCLI(context.Background(), "", "verify", filepath.Join(pub, publish.LatestLink)); code != exitFailed {
			t.Errorf("verify of a latest naming nothing: got exit %d, want %d", code, exitFailed)
		}
		if stderr := index(t, pub); !strings.Contains(stderr, "latest-broken") || !strings.Contains(stderr, "which is not there") {
			t.Errorf("got stderr %q, want the broken latest reported", stderr)
		}
		verifies(t, pub)
	})
}

// TestOutHealsDeletedManifest: an --out snapshot whose manifest.json was
// deleted is moved aside and written anew (every later run exited 2, "not
// an ingest snapshot"); the same folder where ingest never ran (no state
// folder beside it) is still refused, not taken.
func TestOutHealsDeletedManifest(t *testing.T) {
	t.Parallel()
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", out); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	foreign := filepath.Join(t.TempDir(), "theirs")
	copyTree(t, out, foreign)
	for _, dir := range []string{out, foreign} {
		if err := os.Remove(filepath.Join(dir, artifacts.ManifestFile)); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", out)
	if code != exitOK || !strings.Contains(stderr, "manifest.json: missing") || !strings.Contains(stderr, "moved aside to") {
		t.Errorf("got exit %d, %q; want exit %d and the snapshot moved aside", code, stderr, exitOK)
	}
	if code, stdout, stderr := runCLI(context.Background(), "", "verify", out); code != exitOK {
		t.Errorf("verify: exit %d: %s%s", code, stdout, stderr)
	}
	aside, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".out.ingest", "broken", "out-*", artifacts.ChunksFile))
	if len(aside) != 1 {
		t.Errorf("got %v moved aside, want the old files kept", aside)
	}
	code, _, stderr = runCLI(context.Background(), "", "index", "--corpus", c, "--out", foreign)
	if code == exitOK || !strings.Contains(stderr, "not an ingest snapshot") {
		t.Errorf("a folder ingest never ran in: got exit %d, %q; want it refused", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(foreign, artifacts.ChunksFile)); err != nil {
		t.Errorf("the foreign folder was touched: %v", err)
	}
}
