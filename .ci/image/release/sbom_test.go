package release

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// bom is an SBOM as cyclonedx-gomod writes it, shortened.
const bom = `{
  "bomFormat": "CycloneDX",
  "specVersion": "1.6",
  "version": 1,
  "metadata": {
    "tools": [{"name": "cyclonedx-gomod", "version": "v1.10.0", "hashes": [{"alg": "SHA-256", "content": "6371"}]}],
    "component": {"name": "github.com/ocean-safety/ingest", "evidence": {"licenses": [{"license": {"id": "Apache-2.0"}}]}}
  },
  "components": [
    {"name": "github.com/apache/arrow-go/v18", "version": "v18.8.0", "purl": "pkg:golang/x?a=1&b=2",
     "evidence": {"licenses": [{"license": {"id": "Apache-2.0"}}]}},
    {"name": "github.com/yuin/goldmark", "version": "v1.8.7", "evidence": {"licenses": [{"license": {"id": "MIT"}}]}}
  ]
}`

// TestWithoutToolHashes: the tool's hashes of itself go, the rest stays,
// and the output is the same for the same input.
func TestWithoutToolHashes(t *testing.T) {
	got, err := withoutToolHashes([]byte(bom))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "6371") || !strings.Contains(string(got), `"version": "v1.10.0"`) {
		t.Errorf("got\n%s\nwant the tool's version without its hashes", got)
	}
	if !strings.Contains(string(got), "arrow-go") || !strings.Contains(string(got), `a=1\u0026b=2`) {
		t.Errorf("got\n%s\nwant the components as they were", got)
	}
	if i, j := strings.Index(string(got), "specVersion"), strings.Index(string(got), "components"); i > j {
		t.Errorf("got\n%s\nwant the fields in the tool's order", got)
	}
	again, _ := withoutToolHashes([]byte(bom))
	if string(again) != string(got) {
		t.Errorf("two runs differ")
	}
	if _, err := withoutToolHashes([]byte(`{"bomFormat": "CycloneDX", "annotations": []}`)); err == nil {
		t.Errorf("an SBOM with a field the code does not know: got no error, want it refused rather than lost")
	}
}

func TestCheckSBOM(t *testing.T) {
	deps := []*debug.Module{{Path: "github.com/apache/arrow-go/v18", Version: "v18.8.0"}, {Path: "github.com/yuin/goldmark", Version: "v1.8.7"}}
	tests := []struct {
		name, bom string
		deps      []*debug.Module
		want      string // in the error; "" for none
	}{
		{"the modules linked, permissive", bom, deps, ""},
		{"a module linked but not listed", bom, append(deps, &debug.Module{Path: "golang.org/x/text", Version: "v0.44.0"}), "golang.org/x/text@v0.44.0 is linked but not listed"},
		{"a module listed but not linked", bom, deps[:1], "goldmark@v1.8.7 is listed but not linked"},
		{"another version", bom, []*debug.Module{deps[0], {Path: "github.com/yuin/goldmark", Version: "v1.8.6"}}, "goldmark@v1.8.7 is listed but not linked"},
		{"a copyleft licence", strings.Replace(bom, `"MIT"`, `"GPL-3.0-only"`, 1), deps, "licence GPL-3.0-only is not one a release ships unread"},
		{"no licence found", strings.Replace(bom, `"evidence": {"licenses": [{"license": {"id": "MIT"}}]}`, `"scope": "required"`, 1), deps, "goldmark@v1.8.7: no licence found"},
		{"ingest without its licence", strings.Replace(bom, `"evidence": {"licenses": [{"license": {"id": "Apache-2.0"}}]}}`, `"type": "application"}`, 1), deps, "ingest's licence found as [], want Apache-2.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkSBOM([]byte(tt.bom), tt.deps)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// TestAppendLicences: each module's licence files, under a heading naming it;
// a module without one stops the release.
func TestAppendLicences(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"LICENSE": "MIT License\n", "NOTICE.txt": "Copyright Amazon\n", "PATENTS": "grant\n", "main.go": "package x\n", "LICENSES": ""}
	for name, body := range files {
		if name == "LICENSES" {
			os.Mkdir(filepath.Join(dir, name), 0o755) // a folder, not a file (google.golang.org/api has one)
			continue
		}
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	var buf bytes.Buffer
	if err := appendLicences(&buf, module{"example.com/m", "v1.0.0", dir}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{"example.com/m v1.0.0: LICENSE\n", "MIT License", "example.com/m v1.0.0: NOTICE.txt\n", "Copyright Amazon", "example.com/m v1.0.0: PATENTS\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant it to hold %q", got, want)
		}
	}
	if strings.Contains(got, "package x") || strings.Index(got, "LICENSE\n") > strings.Index(got, "NOTICE.txt") {
		t.Errorf("got\n%s\nwant the licence files only, by name", got)
	}
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "README.md"), []byte("no licence"), 0o644)
	if err := appendLicences(&buf, module{"example.com/none", "v0.1.0", empty}); err == nil || !strings.Contains(err.Error(), "example.com/none@v0.1.0 has no licence file") {
		t.Errorf("a module without a licence file: got %v, want it refused", err)
	}
}
