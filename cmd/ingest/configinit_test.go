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
	"github.com/ocean-safety/ingest/schema"
)

// TestInitThenIndex: ingest init writes a starter config for a Hugo site's
// translation that index takes as it is (its pages' URLs under the site's
// /pt/), keeps an existing file unless --force, and ingest config shows
// what index runs with, value by value with its source, and reads back as
// that config.
func TestInitThenIndex(t *testing.T) {
	root := t.TempDir()
	write := func(p, body string) {
		p = filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	write("hugo.yaml", "baseURL: https://surf.example.org/\n")
	write("content/en/_index.md", "---\ntitle: Surf\n---\n\nWaves break on the sand bar at low tide.\n")
	write("content/pt/_index.md", "---\ntitle: Surfe\n---\n\nAs ondas quebram no banco de areia na maré baixa.\n")
	write("content/pt/docs/mares.md", "---\ntitle: Marés\n---\n\nA maré baixa expõe o banco de areia perto da praia.\n")
	write("content/pt/_includes/aviso.md", "Um aviso incluído em outras páginas.\n")
	cfg := filepath.Join(t.TempDir(), "ingest.yaml")
	pt := filepath.Join(root, "content", "pt")

	code, _, stderr := runCLI(context.Background(), "", "init", "--output", cfg, pt)
	if code != exitOK || !strings.Contains(stderr, "wrote "+cfg) || !strings.Contains(stderr, "hugo") {
		t.Fatalf("init: exit %d:\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(context.Background(), "", "init", "--output", cfg, pt); code != exitUsage || !strings.Contains(stderr, "exists") {
		t.Errorf("init over an existing file: exit %d, %q; want 2, the file kept", code, stderr)
	}
	if code, _, _ := runCLI(context.Background(), "", "init", "--output", cfg, "--force", pt); code != exitOK {
		t.Errorf("init --force: exit %d, want 0", code)
	}
	snap := filepath.Join(t.TempDir(), "snap")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", pt, "--config", cfg, "--out", snap, "--strict"); code != exitOK {
		t.Fatalf("index with the starter config: exit %d:\n%s", code, stderr)
	}
	cf, err := artifacts.OpenChunks(filepath.Join(snap, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	defer cf.Close()
	docs := map[string]string{}
	cf.Each(context.Background(), func(c schema.Chunk) error { docs[c.DocPath] = c.SourceURL; return nil })
	want := map[string]string{"_index.md": "https://surf.example.org/pt/", "docs/mares.md": "https://surf.example.org/pt/docs/mares/"}
	if len(docs) != len(want) || docs["_index.md"] != want["_index.md"] || docs["docs/mares.md"] != want["docs/mares.md"] {
		t.Errorf("got documents and URLs %v, want %v (the partial left out)", docs, want)
	}

	t.Setenv("INGEST_WORKERS", "3")
	code, stdout, stderr := runCLI(context.Background(), "", "config", "--config", cfg, "--corpus", pt, "--ignore", "oversize")
	if code != exitOK {
		t.Fatalf("config: exit %d:\n%s", code, stderr)
	}
	for _, line := range []string{
		"corpus: " + pt, "# flag --corpus", "workers: 3", "# env INGEST_WORKERS",
		`source_url_template: "https://surf.example.org/{lang}/{path}/"`, "# file " + cfg + ":",
		"  ignore: [oversize]", "  max: 700", "# default", "(left out: content-pt, from the corpus folder)",
	} {
		if !strings.Contains(stdout, line) {
			t.Errorf("config's output lacks %q:\n%s", line, stdout)
		}
	}
	back, err := config.Parse([]byte(stdout))
	if err != nil {
		t.Fatalf("config's output is not a config file: %v", err)
	}
	if back.Run.Workers != 3 || back.Run.Corpus != pt || back.Run.SourceURLTemplate != "https://surf.example.org/{lang}/{path}/" || back.Run.Diagnostics.Ignore[0] != "oversize" {
		t.Errorf("config's output read back as %+v, want what index runs with", back.Run)
	}
	code, stdout, _ = runCLI(context.Background(), "", "config", "--config", cfg, "--json")
	var settings []config.Setting
	if code != exitOK || json.Unmarshal([]byte(stdout), &settings) != nil {
		t.Fatalf("config --json: exit %d:\n%s", code, stdout)
	}
	found := false
	for _, s := range settings {
		if s.Key == "workers" {
			found = s.Value == float64(3) && s.Source == config.FromEnv && s.Where == "INGEST_WORKERS"
		}
	}
	if !found {
		t.Errorf("config --json: workers is not 3 from INGEST_WORKERS:\n%s", stdout)
	}
	if code, _, stderr := runCLI(context.Background(), "", "config", "--workers", "-1"); code != exitUsage || !strings.Contains(stderr, "--workers: -1") {
		t.Errorf("config with a bad value: exit %d, %q; want 2 naming the flag", code, stderr)
	}
}

// TestInitKnowsTheSite: init writes into the folder it is given (not the
// folder it runs in), lists no assets folder as a language, sets the
// site's default language, and a site with no address gets a placeholder
// that index refuses naming the key.
func TestInitKnowsTheSite(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for p, body := range map[string]string{
		"mkdocs.yml":       "site_name: Praia\nplugins:\n  - i18n:\n      languages:\n        - locale: pt\n          default: true\n        - locale: en\n",
		"docs/pt/index.md": "# Praia\n\nAs ondas quebram no banco de areia.\n",
		"docs/en/index.md": "# Beach\n\nWaves break on the sand bar.\n",
		"docs/js/app.js":   "console.log(1)\n",
	} {
		p = filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	code, _, stderr := runCLI(context.Background(), "", "init", root)
	if code != exitOK {
		t.Fatalf("init: exit %d:\n%s", code, stderr)
	}
	if _, err := os.Stat("ingest.yaml"); err == nil {
		t.Errorf("init wrote ingest.yaml into the folder it ran in")
	}
	b, err := os.ReadFile(filepath.Join(root, "ingest.yaml"))
	if err != nil {
		t.Fatalf("init wrote no ingest.yaml into %s: %v", root, err)
	}
	text := string(b)
	for _, c := range []struct {
		what string
		ok   bool
	}{
		{"the language folders, without js", strings.Contains(text, "Language folders: en, pt.")},
		{"the site's default language", strings.Contains(text, "\ndefault_lang: pt\n")},
		{"the placeholder named as one", strings.Contains(text, "replace this placeholder")},
	} {
		if !c.ok {
			t.Errorf("%s: got\n%s", c.what, text)
		}
	}
	code, _, stderr = runCLI(context.Background(), "", "index", "--corpus", filepath.Join(root, "docs"), "--config", filepath.Join(root, "ingest.yaml"),
		"--out", filepath.Join(t.TempDir(), "snap"))
	if code != exitUsage || !strings.Contains(stderr, "source_url_template") || !strings.Contains(stderr, "placeholder") {
		t.Errorf("index with the placeholder: exit %d, %q; want %d naming source_url_template", code, stderr, exitUsage)
	}
}
