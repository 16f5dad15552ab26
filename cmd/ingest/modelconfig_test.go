package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/models/modelfake"
)

// TestModelsInTheConfig: a config file names the models and their server;
// ingest config shows each with its source (the file's line, a flag, a
// variable), and index with that file and no model flag calls them. A flag
// overrides the file, as for every other key.
func TestModelsInTheConfig(t *testing.T) {
	srv := modelfake.New(modelfake.Options{Dims: 1024})
	defer srv.Close()
	cfg := filepath.Join(t.TempDir(), "ingest.yaml")
	body := "llm: ollama:qwen2.5:7b\nembedder: ollama:bge-m3\nhosts:\n  ollama: " + srv.URL + "\nllm_max_concurrency: 4\nplan_rate: 2000,40\n"
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("INGEST_TEI_URL", "http://tei.internal:8080")
	code, stdout, stderr := runCLI(context.Background(), "", "config", "--config", cfg, "--json", "--plan-rate", "900")
	if code != exitOK {
		t.Fatalf("config: exit %d: %s", code, stderr)
	}
	var got []config.Setting
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	source := map[string]string{}
	for _, s := range got {
		source[s.Key] = s.Source + " " + s.Where
	}
	for key, want := range map[string]string{
		"llm":                 "file " + cfg + ":1",
		"embedder":            "file " + cfg + ":2",
		"hosts.ollama":        "file " + cfg + ":4",
		"hosts.tei":           "env INGEST_TEI_URL",
		"llm_max_concurrency": "file " + cfg + ":5",
		"plan_rate":           "flag --plan-rate",
		"model_timeout":       "default ",
	} {
		if source[key] != want {
			t.Errorf("%s: got source %q, want %q", key, source[key], want)
		}
	}

	out := filepath.Join(t.TempDir(), "snap")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", out, "--quiet", "--config", cfg); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	m, err := artifacts.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(m.Embedder.Name, "ollama:bge-m3") || !strings.HasPrefix(m.HeaderWriter, "ollama:qwen2.5:7b") {
		t.Errorf("got embedder %s, headers %s; want the config's ollama models", m.Embedder.Name, m.HeaderWriter)
	}
	if srv.Calls(modelfake.OllamaChat) == 0 || srv.Calls(modelfake.OllamaEmbed) == 0 {
		t.Errorf("got %d chat and %d embed calls, want the config's server called", srv.Calls(modelfake.OllamaChat), srv.Calls(modelfake.OllamaEmbed))
	}

	over := filepath.Join(t.TempDir(), "snap")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", over, "--quiet", "--config", cfg, "--llm", "none", "--embedder", "builtin"); code != exitOK {
		t.Fatalf("index with flags: exit %d: %s", code, stderr)
	}
	if m, err := artifacts.ReadManifest(over); err != nil || !strings.HasPrefix(m.HeaderWriter, "extractive") || !strings.HasPrefix(m.Embedder.Name, "builtin") {
		t.Errorf("got %v, %+v; want the flags' offline models over the file's", err, m)
	}
}

// TestConfigRefusesCredentials: an address with a password in the config
// file is a usage error naming its line and the variable to use instead;
// the same address in the variable is taken (and masked when printed).
func TestConfigRefusesCredentials(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "ingest.yaml")
	os.WriteFile(cfg, []byte("workers: 2\nhosts:\n  openai: https://me:s3cr3t-pass@llm.example.org/v1\n"), 0o644)
	code, _, stderr := runCLI(context.Background(), "", "config", "--config", cfg)
	if code != exitUsage || !strings.Contains(stderr, "line 3: hosts.openai: an address with credentials") || !strings.Contains(stderr, "$OPENAI_BASE_URL") {
		t.Errorf("got exit %d, stderr %q; want %d naming line 3 and $OPENAI_BASE_URL", code, stderr, exitUsage)
	}
	if strings.Contains(stderr, "s3cr3t-pass") {
		t.Errorf("got the password printed: %q", stderr)
	}
}
