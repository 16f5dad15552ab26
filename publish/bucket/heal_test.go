package bucket_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"gocloud.dev/blob"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/bucket"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// raw opens the bucket behind a publish URL as it is, for a test to damage
// what a run published: what an operator, a bad disk or an attacker can do.
func raw(t *testing.T, url string) *blob.Bucket {
	t.Helper()
	base, query, _ := strings.Cut(url, "?")
	b, err := blob.OpenBucket(context.Background(), strings.TrimSuffix(base, "/ocean")+"?"+query)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return blob.PrefixedBucket(b, "ocean/")
}

func keys(t *testing.T, b *blob.Bucket, prefix string) []string {
	t.Helper()
	var out []string
	it := b.List(&blob.ListOptions{Prefix: prefix})
	for {
		o, err := it.Next(context.Background())
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o.Key)
	}
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
		damage     func(t *testing.T, b *blob.Bucket, name string)
		wantBroken bool // s.Latest says latest is broken before the repair
		wantAside  bool // the snapshot is copied aside
		wantReused bool // the snapshot itself is whole: reused, and latest.json rewritten
	}{
		{"a byte of chunks.parquet flipped", func(t *testing.T, b *blob.Bucket, name string) {
			data, err := b.ReadAll(ctx, name+"/"+artifacts.ChunksFile)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 1
			if err := b.WriteAll(ctx, name+"/"+artifacts.ChunksFile, data, nil); err != nil {
				t.Fatal(err)
			}
		}, false, true, false},
		{"report.json deleted", func(t *testing.T, b *blob.Bucket, name string) {
			if err := b.Delete(ctx, name+"/"+artifacts.ReportFile); err != nil {
				t.Fatal(err)
			}
		}, true, true, false},
		{"latest.json names a deleted snapshot", func(t *testing.T, b *blob.Bucket, name string) {
			for _, k := range keys(t, b, name+"/") {
				if err := b.Delete(ctx, k); err != nil {
					t.Fatal(err)
				}
			}
		}, true, false, false},
		{"latest.json is not JSON", func(t *testing.T, b *blob.Bucket, name string) {
			if err := b.WriteAll(ctx, bucket.LatestFile, []byte("{"), nil); err != nil {
				t.Fatal(err)
			}
		}, true, false, true},
		{"the manifest is not the one latest.json records", func(t *testing.T, b *blob.Bucket, name string) {
			mb, err := b.ReadAll(ctx, name+"/"+artifacts.ManifestFile)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			json.Unmarshal(mb, &m)
			m["tool_version"] = "forged"
			mb, _ = json.Marshal(m)
			if err := b.WriteAll(ctx, name+"/"+artifacts.ManifestFile, mb, nil); err != nil {
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
