package markdown

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/internal/slowtest"
)

// gatheredSites are documentation sites nobody here wrote, as their authors
// write them (MkDocs Material with PyMdown extensions, Docusaurus MDX), at
// the versions issue 32's closing note measured. None is in the
// repository: each is its Go module's zip from the module proxy, unpacked
// into the user's cache as ingest-sites/NAME (the files under the zip's
// "module@version/" folder), e.g.
//
//	curl -sO https://proxy.golang.org/github.com/traefik/traefik/v3/@v/v3.7.13.zip
//	unzip -q v3.7.13.zip 'github.com/traefik/traefik/v3@v3.7.13/docs/*' -d /tmp/z
//	mv /tmp/z/github.com/traefik/traefik/v3@v3.7.13 ~/.cache/ingest-sites/traefik
//
// A site that is not there is skipped, saying so.
var gatheredSites = []struct {
	name, module, docs string // docs: the site's docs folder in the module
	exclude, bases     []string
}{
	{name: "testcontainers", module: "github.com/testcontainers/testcontainers-go@v0.45.0", docs: "docs",
		exclude: []string{"theme/**", "css/**", "js/**", "icons/**", "language-logos/**"}, bases: []string{".."}},
	{name: "traefik", module: "github.com/traefik/traefik/v3@v3.7.13", docs: "docs/content",
		exclude: []string{"**/include-*.md", "includes/**", "assets/**"}, bases: []string{".."}},
	{name: "trivy", module: "github.com/aquasecurity/trivy@v0.74.0", docs: "docs",
		exclude: []string{"overrides/**", "imgs/**", "build/**"}, bases: []string{".."}},
	{name: "external-secrets", module: "github.com/external-secrets/external-secrets@v1.3.2", docs: "docs",
		exclude: []string{"snippets/**", "pictures/**"}, bases: []string{"snippets"}},
	{name: "opa", module: "github.com/open-policy-agent/opa@v1.22.4", docs: "docs/docs",
		exclude: []string{"assets/**", "**/assets/**", "**/_*.md"}},
}

// TestQualitySites holds the gathered sites to 0 site markup left in
// chunks (chunking.Debris: block markers at a chunk's start, attribute
// lists in paths and text, include markers, mkdocstrings options as code,
// unknown blocks) and no cut inside a sentence, as TestQualityOtel holds
// the OpenTelemetry docs.
func TestQualitySites(t *testing.T) {
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no cache folder for the gathered sites: %v", err)
	}
	for _, site := range gatheredSites {
		t.Run(site.name, func(t *testing.T) {
			root := filepath.Join(cache, "ingest-sites", site.name, filepath.FromSlash(site.docs))
			if _, err := os.Stat(root); err != nil {
				t.Skipf("%s is not here (%v): unpack %s from the Go module proxy there (see gatheredSites)", root, err, site.module)
			}
			slowtest.Mark(t, "a real documentation site chunked whole: about a second")
			q := measureSite(t, root, corpus.Filter{Exclude: site.exclude}, site.bases, chunking.DefaultConfig())
			if q.Documents == 0 {
				t.Fatalf("got 0 documents under %s", root)
			}
			if d := q.Debris; d.Total() > 0 || d.IncludeInCode > 0 {
				t.Errorf("got site markup left in %d chunks of %d (%+v; e.g. %v), want 0", d.Total()+d.IncludeInCode, q.Chunks, d, q.Examples())
			}
			if q.InSentence > 0 {
				t.Errorf("got %d cuts inside a sentence, want 0 (e.g. %v)", q.InSentence, q.Examples()["cut inside a sentence"])
			}
		})
	}
}
