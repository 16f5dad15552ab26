package preview

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/stages/settings"
)

func TestChunk(t *testing.T) {
	dir := t.TempDir()
	doc := "---\ntitle: Rip currents\nlang: en\nsource: test\nkind: safety\n---\n\n# Rip currents\n\nA rip current pulls you away from the shore. Swim parallel to the beach until it lets go.\n"
	if err := os.WriteFile(filepath.Join(dir, "rip.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "rip.md")
	tests := []struct {
		name  string
		arg   string
		stats bool
		path  string // doc_path of the lines
	}{
		{"a file, its path as given", file, false, file},
		{"a folder read as a corpus", dir, false, "rip.md"},
		{"stats of a folder", dir, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errw bytes.Buffer
			pv, err := New(settings.DefaultConfig(), tt.stats, &out, &errw)
			if err != nil {
				t.Fatal(err)
			}
			rejected, err := pv.Chunk(tt.arg)
			if err != nil || rejected != 0 {
				t.Fatalf("got %d rejected, error %v; want 0, nil (diagnostics: %s)", rejected, err, errw.String())
			}
			if tt.stats {
				if !strings.Contains(out.String(), dir) {
					t.Errorf("got figures %q, want them named %s", out.String(), dir)
				}
				return
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			for i, l := range lines {
				var got Line
				if err := json.Unmarshal([]byte(l), &got); err != nil {
					t.Fatalf("line %d: %v", i, err)
				}
				if got.Path != tt.path || got.Order != i || got.Text == "" {
					t.Errorf("line %d: got path %q order %d text %q, want path %q order %d and text", i, got.Path, got.Order, got.Text, tt.path, i)
				}
			}
		})
	}
}

// TestChunkHTML: ingest chunk reads a page with the HTML format, as a file
// and as a document of a folder, with the file's line numbers.
func TestChunkHTML(t *testing.T) {
	dir := t.TempDir()
	page := "<html lang=en><head><title>Rip currents</title><link rel=canonical href=https://example.org/rip></head>\n" +
		"<body><nav>Home</nav>\n<h1>Rip currents</h1>\n<p>A rip current pulls you away from the shore.\nSwim parallel to the beach until it lets go.</p>\n</body></html>\n"
	if err := os.WriteFile(filepath.Join(dir, "rip.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{filepath.Join(dir, "rip.html"), dir} {
		var out, errw bytes.Buffer
		pv, err := New(settings.DefaultConfig(), false, &out, &errw)
		if err != nil {
			t.Fatal(err)
		}
		if rejected, err := pv.Chunk(arg); err != nil || rejected != 0 {
			t.Fatalf("%s: got %d rejected, error %v; want 0, nil (diagnostics: %s)", arg, rejected, err, errw.String())
		}
		var got Line
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%s: %v (%q)", arg, err, out.String())
		}
		want := "A rip current pulls you away from the shore.\nSwim parallel to the beach until it lets go."
		if got.Text != want || got.LineStart != 4 || got.LineEnd != 5 {
			t.Errorf("%s: got %q lines %d-%d, want %q lines 4-5", arg, got.Text, got.LineStart, got.LineEnd, want)
		}
	}
}
