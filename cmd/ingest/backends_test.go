package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/stages/settings"
)

// TestBackendConfigEnvironment: the variables a model server's client
// needs reach it through the command line's BackendConfig (package models
// reads none), and a flag wins over its variable.
func TestBackendConfigEnvironment(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "gpu-0:11434,gpu-1:11434")
	t.Setenv("OPENAI_BASE_URL", "https://models.example/v1")
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("OLLAMA_AUTH", "1")
	tests := []struct {
		name string
		args []string
		want models.BackendConfig
	}{
		{"variables", nil, models.BackendConfig{Addrs: map[string]string{"ollama": "gpu-0:11434,gpu-1:11434", "openai": "https://models.example/v1"},
			OllamaAuth: true, OpenAIKey: "sk-from-env"}},
		{"flags win", []string{"--ollama-host", "http://other:1", "--openai-base-url", "http://local/v1"},
			models.BackendConfig{Addrs: map[string]string{"ollama": "http://other:1", "openai": "http://local/v1"}, OllamaAuth: true, OpenAIKey: "sk-from-env"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got models.BackendConfig
			cmd := &cli.Command{Name: "index", Flags: backendFlags(), Action: func(_ context.Context, c *cli.Command) error {
				got = backendConfig(modelSettings(c, config.Default()), settings.DefaultConfig())
				return nil
			}}
			if err := cmd.Run(context.Background(), append([]string{"index"}, tc.args...)); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"ollama", "openai"} {
				if got.Addrs[k] != tc.want.Addrs[k] {
					t.Errorf("got %s address %q, want %q", k, got.Addrs[k], tc.want.Addrs[k])
				}
			}
			if got.OllamaAuth != tc.want.OllamaAuth || got.OpenAIKey != tc.want.OpenAIKey {
				t.Errorf("got auth %v key %q, want %v %q", got.OllamaAuth, got.OpenAIKey, tc.want.OllamaAuth, tc.want.OpenAIKey)
			}
		})
	}
	t.Setenv("OLLAMA_AUTH", "")
	t.Setenv("OPENAI_API_KEY", "")
	var got models.BackendConfig
	cmd := &cli.Command{Name: "index", Flags: backendFlags(), Action: func(_ context.Context, c *cli.Command) error {
		got = backendConfig(modelSettings(c, config.Default()), settings.DefaultConfig())
		return nil
	}}
	if err := cmd.Run(context.Background(), []string{"index"}); err != nil {
		t.Fatal(err)
	}
	if got.OllamaAuth || got.OpenAIKey != "" {
		t.Errorf("with the variables empty: got auth %v key %q, want false and none", got.OllamaAuth, got.OpenAIKey)
	}
}

// TestOllamaSigningSettings: $OLLAMA_AUTH is read as Ollama reads it (a
// "0" or "false" is off), and the signing key's path comes from $HOME.
func TestOllamaSigningSettings(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{{"", false}, {"1", true}, {"true", true}, {"0", false}, {"false", false}, {" 'false' ", false}, {`"1"`, true}, {"yes", true}} {
		if got := ollamaAuth(tc.v); got != tc.want {
			t.Errorf("OLLAMA_AUTH=%q: got %v, want %v", tc.v, got, tc.want)
		}
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	if got, want := ollamaKey(), filepath.Join(home, ".ollama", "id_ed25519"); got != want {
		t.Errorf("got key %q, want %q", got, want)
	}
}

// TestIndexEmbeddingOnlyServer: --embedder tei:MODEL --tei-url runs the
// main job with vectors from a text-embeddings-inference server and the
// offline headers (a flag the kind's registration gave the command line);
// --llm tei:MODEL is a usage error naming the kinds that write headers,
// and nothing is written.
func TestIndexEmbeddingOnlyServer(t *testing.T) {
	t.Parallel()
	srv := modelfake.New(modelfake.Options{Dims: 1024})
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "snap")
	args := []string{"index", "--corpus", fixtureCorpus, "--out", out, "--quiet", "--embedder", "tei:bge-m3", "--tei-url", srv.URL}
	if code, _, stderr := runCLI(context.Background(), "", args...); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	m, err := artifacts.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(m.Embedder.Name, "tei:bge-m3@rev:") || m.Embedder.Dims != 1024 || !strings.HasPrefix(m.HeaderWriter, "extractive") {
		t.Errorf("got embedder %s (%d dims), headers %s; want tei:bge-m3@rev:… of 1024 and the extractive writer", m.Embedder.Name, m.Embedder.Dims, m.HeaderWriter)
	}
	if srv.Calls(modelfake.TEIEmbed) < 2 || srv.Calls(modelfake.OllamaChat)+srv.Calls(modelfake.OpenAIChat) != 0 {
		t.Errorf("got %d TEI calls and %d chat calls, want the chunks embedded there and no chat", srv.Calls(modelfake.TEIEmbed), srv.Calls(modelfake.OllamaChat)+srv.Calls(modelfake.OpenAIChat))
	}

	refused := filepath.Join(t.TempDir(), "snap")
	code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", refused, "--llm", "tei:bge-m3", "--tei-url", srv.URL)
	if code != exitUsage || !strings.Contains(stderr, "tei serves no chat") || !strings.Contains(stderr, "ollama:MODEL or openai:MODEL") {
		t.Errorf("got exit %d, stderr %q; want %d naming the kinds that chat", code, stderr, exitUsage)
	}
	if _, err := os.Stat(refused); err == nil {
		t.Errorf("got %s written", refused)
	}
}
