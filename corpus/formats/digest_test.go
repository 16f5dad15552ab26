package formats

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/stamp"
)

// TestInputDigestIsParse: the input hash InputDigest computes without
// parsing (a format's Includes, not its Parse) is the one Parse records, for
// documents with and without includes, a failed include, a rejected
// document and a page; and an edit to an included file changes it for the
// documents that include it only.
func TestInputDigestIsParse(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"_includes/note.md": "A Hugo partial.\n",
		"snippets/a.md":     "Snippet words.\n--8<-- \"snippets/b.md\"\n",
		"snippets/b.md":     "Deeper words.\n",
		"plain.md":          "# Plain\n\nNo directive here.\n",
		"shortcode.md":      "# Shortcode\n\n{{< figure src=\"x.png\" >}}\n",
		"hugo.md":           "# Hugo\n\n{{% include \"note.md\" %}}\n",
		"snippet.md":        "# Snippet\n\n--8<-- \"snippets/a.md\"\n",
		"missing.md":        "# Missing\n\n--8<-- \"snippets/nope.md\"\n",
		"rejected.md":       "---\ntitle: [unclosed\n---\n{{% include \"note.md\" %}}\n",
		"page.html":         "<h1>Page</h1><p>{{ not a directive }}</p>\n",
	}
	for name, text := range files {
		write(t, filepath.Join(root, name), text)
	}
	digests := func() map[string]string {
		r := All.Reader(root, corpus.Options{Root: root, SourceOptional: true}) // a run's: it may keep what it read
		out := map[string]string{}
		for _, name := range []string{"plain.md", "shortcode.md", "hugo.md", "snippet.md", "missing.md", "rejected.md", "page.html"} {
			p, err := r.Parse(name)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.InputDigest(name); got != p.RawSHA256 {
				t.Errorf("%s: got InputDigest %s, want Parse's %s", name, got, p.RawSHA256)
			}
			out[name] = p.RawSHA256
		}
		return out
	}
	before := digests()
	write(t, filepath.Join(root, "snippets/b.md"), "Deeper words, edited.\n")
	after := digests()
	for name, want := range map[string]bool{"plain.md": false, "hugo.md": false, "snippet.md": true, "missing.md": false, "page.html": false} {
		if got := before[name] != after[name]; got != want {
			t.Errorf("%s: got changed %v after an edit to snippets/b.md, want %v", name, got, want)
		}
	}
}

// TestStampedDocuments: every document has a stamp, a Hugo shortcode or a
// page's braces notwithstanding; one that names an include has the stamps
// of the paths its includes were looked for at beside its own, found or
// not, and Parse and InputStamped agree. A recorded stamp holds, the file
// unread, until what the document's input hash depends on changes: an
// included file written, a file appearing where an include was not found,
// or where it would be found first.
func TestStampedDocuments(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("stamps are read on Linux only")
	}
	root := t.TempDir()
	files := map[string]string{ // and whether the document has a stamp
		"plain.md":          "# Plain\n\nNo directive here.\n",
		"shortcode.md":      "# Shortcode\n\n{{< figure src=\"x.png\" >}}\n",
		"page.html":         "<h1>Page</h1><p>{{ not a directive }}</p>\n",
		"hugo.md":           "# Hugo\n\n{{% include \"note.md\" %}}\n",
		"kept.md":           "# Kept\n\n{{% include \"kept.md\" %}}\n",
		"deep/shadowed.md":  "# Shadowed\n\n{{% include \"other.md\" %}}\n",
		"missing.md":        "# Missing\n\n--8<-- \"snippets/nope.md\"\n",
		"rejected.md":       "---\ntitle: [unclosed\n---\n{{% include \"note.md\" %}}\n",
		"_includes/note.md": "A Hugo partial.\n",
	}
	for name, text := range files {
		write(t, filepath.Join(root, name), text)
	}
	write(t, filepath.Join(root, "_includes/kept.md"), "Kept as it is.\n")
	write(t, filepath.Join(root, "_includes/other.md"), "Found in the root's _includes.\n")
	settle := func() { time.Sleep(stamp.Settle + 100*time.Millisecond) } // a file changed in the last second has none
	settle()
	r := All.Reader(root, corpus.Options{Root: root, SourceOptional: true})
	check := func() map[string]stamp.Stamp {
		t.Helper()
		out := map[string]stamp.Stamp{}
		for name := range files {
			p, err := r.Parse(name)
			if err != nil {
				t.Fatal(err)
			}
			sum, st := r.InputStamped(name, "", "")
			if sum != p.RawSHA256 || st != p.Stamp {
				t.Errorf("%s: InputStamped gives %s %q, Parse %s %q", name, sum, st, p.RawSHA256, p.Stamp)
			}
			if st == "" {
				t.Errorf("%s: no stamp", name)
			}
			out[name] = st
		}
		return out
	}
	known := check()
	for name, deps := range map[string]int{"plain.md": 0, "hugo.md": 2, "deep/shadowed.md": 4, "missing.md": 1, "rejected.md": 0} {
		if got := strings.Count(string(known[name]), "\t") / 2; got != deps {
			t.Errorf("%s: got a stamp of %d paths beside its own, want %d: %q", name, got, deps, known[name])
		}
	}

	// A new reader: the one above keeps what its includes read.
	write(t, filepath.Join(root, "_includes/note.md"), "A Hugo partial, edited.\n")
	write(t, filepath.Join(root, "deep/other.md"), "Found first, beside the page.\n")
	write(t, filepath.Join(root, "snippets/nope.md"), "Here now.\n")
	settle()
	r = All.Reader(root, corpus.Options{Root: root, SourceOptional: true})
	changed := map[string]bool{"hugo.md": true, "deep/shadowed.md": true, "missing.md": true, "_includes/note.md": true}
	for name := range files {
		if sum, _ := r.InputStamped(name, known[name], "recorded"); (sum != "recorded") != changed[name] {
			t.Errorf("%s: got %s for its recorded stamp; want it read again %v", name, sum, changed[name])
		}
	}
	check()
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
