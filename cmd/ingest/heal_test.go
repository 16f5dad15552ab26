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
		stderr := index(t, pub)
		if !strings.Contains(stderr, "does not describe its rows") || !strings.Contains(stderr, filepath.Base(broken)+" failed verification") {
			t.Errorf("got stderr %q, want the previous snapshot's manifest reported and the snapshot replaced", stderr)
		}
		verifies(t, pub)
	})

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
