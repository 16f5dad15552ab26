package destinations

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// jsonlFile is a third destination, written as a new one would be, to
// hold the seam to its promise: a file of JSON lines, one chunk a line
// (file:///PATH). It is a package of its own and one line in kinds (here,
// one kind appended); nothing else of deliver, pgsync, push or the console
// knows it.
type jsonlFile struct{ path string }

var _ deliver.Destination = (*jsonlFile)(nil)

func newJSONL(to string) (*jsonlFile, error) {
	u, err := url.Parse(to)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return nil, fmt.Errorf("%s: want file:///PATH", to)
	}
	return &jsonlFile{path: u.Path}, nil
}

// jsonlReport is what it wrote, or would write.
type jsonlReport struct {
	File      string `json:"file"`
	Documents int    `json:"documents"`
	Chunks    int    `json:"chunks"`
	Written   bool   `json:"written"`
}

func (r *jsonlReport) WriteText(w io.Writer) error {
	verb := "would write"
	if r.Written {
		verb = "wrote"
	}
	_, err := fmt.Fprintf(w, "%s %d chunks of %d documents to %s\n", verb, r.Chunks, r.Documents, r.File)
	return err
}

func (d *jsonlFile) Plan(_ context.Context, s *deliver.Snapshot) (deliver.Report, error) {
	return &jsonlReport{File: d.path, Documents: s.Ref.Documents, Chunks: s.Ref.Rows}, nil
}

func (d *jsonlFile) Deliver(ctx context.Context, s *deliver.Snapshot) (deliver.Report, error) {
	f, err := os.Create(d.path)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	err = s.Each(ctx, func(c schema.Chunk) error { return enc.Encode(c) })
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return &jsonlReport{File: d.path, Documents: s.Ref.Documents, Chunks: s.Ref.Rows, Written: true}, nil
}

// withJSONL is kinds with the third destination's line. It has no
// settings, so every caller takes it here; a real one's line names its
// field of Options, which a command sets to deliver to it.
func withJSONL() []kind {
	return append(slices.Clone(kinds), kind{"a JSON lines file", []string{"file"}, "", func(Options) bool { return true },
		func(to string, _ Options) (deliver.Destination, error) { return built(newJSONL(to)) }})
}

// TestThirdDestination opens the JSON lines destination by its URL through
// the registry, plans and delivers a snapshot with it as a command does
// (deliver.Open, then Plan or Deliver, then the Report as text and JSON),
// and checks the other destinations and the refusals are as they were.
func TestThirdDestination(t *testing.T) {
	const tenant = "0a000000-0000-4000-8000-00000000000a"
	dir := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	out := filepath.Join(t.TempDir(), "chunks.jsonl")
	ks := withJSONL()
	d, err := open(ks, "file://"+out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := deliver.Open(context.Background(), dir, tenant, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		do       func(context.Context, *deliver.Snapshot) (deliver.Report, error)
		wantText string
		wantJSON string
	}{
		{"plan", d.Plan, "would write 7 chunks of 3 documents to " + out + "\n",
			`{"file":"` + out + `","documents":3,"chunks":7,"written":false}`},
		{"deliver", d.Deliver, "wrote 7 chunks of 3 documents to " + out + "\n",
			`{"file":"` + out + `","documents":3,"chunks":7,"written":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := tt.do(context.Background(), snap)
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			if err := rep.WriteText(&text); err != nil || text.String() != tt.wantText {
				t.Errorf("got text %q, %v; want %q", text.String(), err, tt.wantText)
			}
			if js, err := json.Marshal(rep); err != nil || string(js) != tt.wantJSON {
				t.Errorf("got JSON %s, %v; want %s", js, err, tt.wantJSON)
			}
		})
	}
	var want, got []string
	snap.Each(context.Background(), func(c schema.Chunk) error { want = append(want, c.ChunkID); return nil })
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var c schema.Chunk
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		got = append(got, c.ChunkID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("got chunks %v, want the snapshot's %v", got, want)
	}
	for to, want := range map[string]string{
		"postgres://db/kb": "postgres://db/kb is a pgvector table's address, and this delivery is not to one: want file://…",
		"ftp://kb/x":       "ftp://kb/x: no destination takes ftp://: want file://…",
	} {
		if _, err := open(ks, to, Options{}); err == nil || err.Error() != want {
			t.Errorf("got %v, want %s", err, want)
		}
	}
}
