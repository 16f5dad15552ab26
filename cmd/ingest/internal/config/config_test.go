package config

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		wantErr string
		check   func(File) bool
	}{
		{name: "empty", yaml: "", check: func(f File) bool { return f.Run.Chunk.Max == 700 && f.Retrieval.TopK == 5 }},
		{name: "comments only", yaml: "# nothing here\n# at all\n", check: func(f File) bool { return f.Run.Chunk.Max == 700 && f.Run.RequireSource }},
		{name: "bare document marker", yaml: "---\n", check: func(f File) bool { return f.Run.Chunk.Max == 700 }},
		{name: "settings", yaml: "llm_concurrency: 3\nrequire_source: false\nchunk: {max: 500}\nretrieval: {top_k: 3}\nout: snap\n",
			check: func(f File) bool {
				return f.Run.LLMConcurrency == 3 && !f.Run.RequireSource && f.Run.Chunk.Max == 500 && f.Run.Chunk.Unit == "chars" && f.Retrieval.TopK == 3 && f.Out == "snap"
			}},
		{name: "push block", yaml: "push: {to: https://kb.example.org/ingest, batch_chunks: 20, timeout: 30s, poll_interval: 250ms}\n",
			check: func(f File) bool {
				p := f.Push
				return p.To == "https://kb.example.org/ingest" && p.BatchChunks == 20 && p.Timeout == 30*time.Second &&
					p.PollInterval == 250*time.Millisecond && p.MaxBytes == 1<<20 && p.InFlight == 2
			}},
		{name: "unknown push key", yaml: "push: {batch: 5}\n", wantErr: "batch"},
		{name: "unknown key", yaml: "chunk:\n  maximum: 5\n", wantErr: "maximum"},
		{name: "second document", yaml: "chunk: {max: 5}\n---\nchunk: {max: 6}\n", wantErr: "line 3: a second YAML document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse([]byte(tt.yaml))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(f) {
				t.Errorf("got %+v, want the check to hold", f)
			}
		})
	}
}

// TestHashIgnoresSpelledDefaults: a file that spells out a default makes
// the same config hash as one that leaves it out, so the unchanged-corpus
// fast path and the snapshot's name survive a documented default written down.
func TestHashIgnoresSpelledDefaults(t *testing.T) {
	bare, err := Parse([]byte("# defaults\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, spelled := range []string{
		"require_source: true\n",
		"default_lang: en\nchunk: {unit: chars, max: 700, min: 175, overlap: 0}\n", // min 175: the quarter of max an unset min stands for
		"embed: {dims: 1024, batch_size: 10, max_dims: 1024}\nheader: {max_chars: 200}\ntenant_id: \"\"\n",
		"llm_concurrency: 7\nworkers: 3\nretrieval: {mode: bm25}\n", // how hard it works and how it is queried: not the output
	} {
		f, err := Parse([]byte(spelled))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := f.Run.Hash(), bare.Run.Hash(); got != want {
			t.Errorf("%q: got hash %s, want %s (the defaults')", spelled, got[:12], want[:12])
		}
	}
	changed, _ := Parse([]byte("chunk: {max: 701}\n"))
	if changed.Run.Hash() == bare.Run.Hash() {
		t.Errorf("chunk.max 701: got the defaults' hash, want another")
	}
}

// TestBounds: every numeric setting has a range; a value outside it is an
// error naming the key, before any work.
func TestBounds(t *testing.T) {
	tests := []struct{ yaml, key string }{
		{"chunk: {max: 1000000000}", "chunk.max"},
		{"embed: {batch_size: 100000000}", "embed.batch_size"},
		{"header: {max_chars: 1000000000}", "header.max_chars"},
		{"embed: {max_dims: 100000000}", "embed.max_dims"},
		{"llm_concurrency: -1", "llm_concurrency"},
		{"embed_concurrency: 100000", "embed_concurrency"},
		{"workers: 1000000", "workers"},
		{"limits: {max_bytes: 10}", "limits.max_bytes"},
		{"limits: {max_depth: 0}", "limits.max_depth"},
		{"limits: {max_blocks: 1000000000}", "limits.max_blocks"},
		{"publish: {max_shrink: -0.1}", "publish.max_shrink"},
		{"retrieval: {top_k: 0}", "retrieval.top_k"},
		{"push: {batch_chunks: 0}", "push.batch_chunks"},
		{"push: {to: ftp://kb/ingest}", "push.to"},
		{"push: {timeout: -1s}", "push.timeout"},
		{"push: {max_bytes: 100}", "push.max_bytes"},
		{"tenant_id: acme", "tenant_id"},
		{"tenant_id: 6F0B8E2C-4A1D-5C3E-9B7F-2D8A1E4C6B50", "tenant_id"},
		{"tenant_id: urn:uuid:6f0b8e2c-4a1d-5c3e-9b7f-2d8a1e4c6b50", "tenant_id"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			f, err := Parse([]byte(tt.yaml + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			err = f.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.key+": ") {
				t.Errorf("got %v, want an error naming %s", err, tt.key)
			}
		})
	}
	if err := Default().Validate(); err != nil {
		t.Errorf("the defaults: got %v, want them valid", err)
	}
}

// TestReadmeConfig: the config block README.md shows, every key with its
// default, is a valid file and is the defaults.
func TestReadmeConfig(t *testing.T) {
	b, err := os.ReadFile("../../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "## Configuration")
	j := strings.Index(s[i:], "```yaml\n")
	if i < 0 || j < 0 {
		t.Fatal("README.md has no Configuration section with a yaml block")
	}
	block := s[i+j+len("```yaml\n"):]
	block = block[:strings.Index(block, "```")]
	f, err := Parse([]byte(block))
	if err != nil {
		t.Fatalf("README's config: %v", err)
	}
	d := Default()
	f.set = nil // what it sets, not which keys it names
	if got, want := fmt.Sprintf("%+v", f), fmt.Sprintf("%+v", d); got != want {
		t.Errorf("README's config is not the defaults:\n got %s\nwant %s", got, want)
	}
}

// TestIsSet: a key the file names is set whatever its value, a default
// spelt out too, and a key it leaves out is not, though its value is the
// same.
func TestIsSet(t *testing.T) {
	f, err := Parse([]byte("llm_concurrency: 0\nchunk:\n  max: 700\npush: {tasks: 4}\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key  string
		want bool
	}{
		{"llm_concurrency", true},
		{"chunk.max", true},
		{"chunk", true},
		{"push.tasks", true},
		{"embed_concurrency", false},
		{"chunk.unit", false},
		{"push.in_flight", false},
	}
	for _, tt := range tests {
		if got := f.IsSet(tt.key); got != tt.want {
			t.Errorf("IsSet(%q): got %v, want %v", tt.key, got, tt.want)
		}
	}
	if f.Run.LLMConcurrency != Default().Run.LLMConcurrency || Default().IsSet("llm_concurrency") {
		t.Errorf("got llm_concurrency %d (set %v in the defaults), want the default's value, set only in the file", f.Run.LLMConcurrency, Default().IsSet("llm_concurrency"))
	}
}
