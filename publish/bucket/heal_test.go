package bucket_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/bucket"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// raw opens the objects behind a publish URL as they are, for a test to
// damage what a run published: what an operator, a bad disk or an attacker
// can do.
func raw(t *testing.T, url string) bucket.Objects {
	t.Helper()
	b, err := bucket.OpenObjects(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func keys(t *testing.T, b bucket.Objects, prefix string) []string {
	t.Helper()
	var out []string
	for o, err := range b.List(context.Background(), prefix, "") {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o.Key)
	}
	return out
}

// readObject and writeObject are a test's read and overwrite of one object.
func readObject(t *testing.T, b bucket.Objects, key string) ([]byte, error) {
	t.Helper()
	r, err := b.Get(context.Background(), key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

func writeObject(t *testing.T, b bucket.Objects, key string, data []byte) error {
	t.Helper()
	return b.Put(context.Background(), key, bytes.NewReader(data), int64(len(data)), bucket.PutOptions{})
}

// TestPublishHeals: a prefix whose latest is damaged, gone or lies about
// its manifest is repaired by the next publish of the same content, which
// copies the broken snapshot aside (under .broken/) before replacing it.
// Before, the same content was skipped as "identical" unread, and a
// latest.json naming a deleted snapshot failed every run.
func TestPublishHeals(t *testing.T) {
	ctx := context.Background()
	build := func(t *testing.T) string {
		return stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	}
	downloadVerifies := func(t *testing.T, s *bucket.Store) {
		t.Helper()
		dir, err := s.Latest(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if rep, err := verify.Verify(dir); err != nil || !rep.OK() {
			t.Errorf("latest does not verify: %v %v", err, rep.Problems())
		}
	}
	tests := []struct {
		name       string
		damage     func(t *testing.T, b bucket.Objects, name string)
		wantBroken bool // s.Latest says latest is broken before the repair
		wantAside  bool // the snapshot is copied aside
		wantReused bool // the snapshot itself is whole: reused, and latest.json rewritten
	}{
		{"a byte of chunks.parquet flipped", func(t *testing.T, b bucket.Objects, name string) {
			data, err := readObject(t, b, name+"/"+artifacts.ChunksFile)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 1
			if err := writeObject(t, b, name+"/"+artifacts.ChunksFile, data); err != nil {
				t.Fatal(err)
			}
		}, false, true, false},
		{"report.json deleted", func(t *testing.T, b bucket.Objects, name string) {
			if err := b.Delete(ctx, name+"/"+artifacts.ReportFile); err != nil {
				t.Fatal(err)
			}
		}, true, true, false},
		{"latest.json names a deleted snapshot", func(t *testing.T, b bucket.Objects, name string) {
			for _, k := range keys(t, b, name+"/") {
				if err := b.Delete(ctx, k); err != nil {
					t.Fatal(err)
				}
			}
		}, true, false, false},
		{"latest.json is not JSON", func(t *testing.T, b bucket.Objects, name string) {
			if err := writeObject(t, b, bucket.LatestFile, []byte("{")); err != nil {
				t.Fatal(err)
			}
		}, true, false, true},
		{"the manifest is not the one latest.json records", func(t *testing.T, b bucket.Objects, name string) {
			mb, err := readObject(t, b, name+"/"+artifacts.ManifestFile)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			json.Unmarshal(mb, &m)
			m["tool_version"] = "forged"
			mb, _ = json.Marshal(m)
			if err := writeObject(t, b, name+"/"+artifacts.ManifestFile, mb); err != nil {
				t.Fatal(err)
			}
		}, true, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := fakeS3(t)
			s := open(t, url)
			first, err := s.Publish(ctx, build(t), 5)
			if err != nil {
				t.Fatal(err)
			}
			b := raw(t, url)
			tt.damage(t, b, first.Name)
			if _, err := s.Latest(ctx, t.TempDir()); tt.wantBroken != errors.Is(err, publish.ErrLatestBroken) {
				t.Errorf("Latest after the damage: got %v, want ErrLatestBroken: %v", err, tt.wantBroken)
			}
			again, err := s.Publish(ctx, build(t), 5)
			if err != nil {
				t.Fatalf("the next publish: %v", err)
			}
			if again.Reused != tt.wantReused {
				t.Errorf("got reused %v, want %v", again.Reused, tt.wantReused)
			}
			aside := keys(t, b, ".broken/"+first.Name+"-")
			if tt.wantAside != (len(aside) > 0) || tt.wantAside != (len(again.Quarantined) == 1) {
				t.Errorf("got %v copied aside, quarantined %+v; want the broken snapshot copied aside: %v", aside, again.Quarantined, tt.wantAside)
			}
			downloadVerifies(t, s)
			if third, err := s.Publish(ctx, build(t), 5); err != nil || !third.Reused || len(third.Quarantined) > 0 {
				t.Errorf("the night after: got %+v, %v; want the repaired snapshot reused", third, err)
			}
		})
	}
}
