package include

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzExpand expands any document body, and any text in a file it may
// include (en/fuzz.md), in a site with a secret outside its roots: it must
// never panic and never read outside the corpus and includes.base (the
// secret never shows; every file it names is a clean path inside a root);
// its spans lie inside the text, its diagnostics on a line of the
// document; a body with no directive comes back as it was; and the text
// grows by at most the MaxTotalBytes an expansion lets in (with the
// indentation and fences written around it).
func FuzzExpand(f *testing.F) {
	for _, s := range []string{
		"--8<-- \"snippets/intro.md\"\n", "```python\n--8<-- \"app.py:3:3\"\n```\n", "--8<-- \"app.py:make\"\n",
		";--8<-- \"app.py\"\n", "--8<--\nsnippets/intro.md\napp.py\n--8<--\n", "--8<-- \"fuzz.md\"\n",
		"{* ../../docs_src/app.py hl[3] ln[1:1] *}\n", "{!../../docs_src/app.py!}\n", "{!../../docs_src/app.py[ln:1-2,4-9]!}\n",
		"{% include-markdown \"fuzz.md\" start=\"<!--s-->\" end=\"<!--e-->\" %}\n", "{% include \"fuzz.md\" %}\n",
		"{{% include \"note.md\" %}}\n", "{{< readfile file=\"fuzz.md\" >}}\n",
		"--8<-- \"../../private/secret.txt\"\n", "--8<-- \"link.txt\"\n", "--8<-- \"/etc/passwd\"\n",
		"--8<-- \"https://example.org/x.md\"\n", "--8<-- \"snippets/loop-a.md\"\n", "--8<-- \"big.txt\"\n",
		"import A from '!!raw-loader!../../docs_src/app.py';\n<CodeBlock language=\"py\">\n{A}\n</CodeBlock>\n",
		"import A from '!raw-loader!fuzz.md'\nimport B from '../../private/secret.txt?raw'\n<CodeBlock>{A}</CodeBlock>\n<CodeBlock>{B}</CodeBlock>\n<CodeBlock>\n{A}\n",
		"{{< alert >}}\nWords.\n{{< /alert >}}\n", "{{% pageinfo %}}\n{%raw%}\n{{<readfile \"fuzz.md\">}}\n",
		"  --8<-- \"app.py:0:-1\"\n", "--8<-- \"app.py:9:2,:\"\n", "--8<-- \"en/../../private/secret.txt\"\n",
	} {
		f.Add(s, "--8<-- \"fuzz.md\"\n")
		f.Add(s, "a\n<!--s-->b\n--8<-- [start:x]\nc\n--8<-- [end:x]\n<!--e-->\n--8<-- \"../../private/secret.txt\"\n")
	}
	root, _, _ := site(f)
	r, err := New(root, []string{"../docs_src"})
	if err != nil {
		f.Fatal(err)
	}
	fuzzFile := filepath.Join(root, "en", "fuzz.md")
	f.Fuzz(func(t *testing.T, body, file string) {
		if err := os.WriteFile(fuzzFile, []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		res := r.Expand("en/guide.md", body)
		if strings.Contains(res.Text, "the secret") && !strings.Contains(body+file, "the secret") {
			t.Fatalf("%q: the file outside the roots was read: %q", body, res.Text)
		}
		for _, fl := range res.Files {
			if fl.Path == "" || path.IsAbs(fl.Path) || path.Clean(fl.Path) != fl.Path || strings.HasPrefix(fl.Path, "../") || strings.HasPrefix(fl.Path, "private/") {
				t.Fatalf("%q: included %q, not a clean path inside a root", body, fl.Path)
			}
		}
		for _, s := range res.Spans {
			if s.Start < 0 || s.Start > s.End || s.End > len(res.Text) {
				t.Fatalf("%q: span %v outside the %d bytes of text", body, s, len(res.Text))
			}
		}
		lines := strings.Count(body, "\n") + 1
		for _, d := range res.Diags {
			if d.Path != "en/guide.md" || d.Line < 1 || d.Line > lines {
				t.Fatalf("%q: diagnostic at %s:%d, outside the document's %d lines", body, d.Path, d.Line, lines)
			}
		}
		// Text that Mentions no directive (a snippet's 8<, a brace form, an
		// MDX raw import, a codeinclude block) is what a full expansion,
		// without Expand's shortcut, leaves as it was: an unchanged corpus
		// is hashed trusting it.
		if !Mentions(body) {
			e := &expansion{r: r, doc: "en/guide.md"}
			if text, _ := e.expand(body, nil, 0, ""); text != body || len(e.res.Files) > 0 || len(e.res.Diags) > 0 {
				t.Fatalf("%q: Mentions no directive, yet the text became %q (%d files, %d diagnostics)", body, text, len(e.res.Files), len(e.res.Diags))
			}
		}
		// At most MaxTotalBytes come in, each of their lines indented as
		// its directive (no wider than a line of the body) and each include
		// fenced (a language named in the directive's line).
		widest := 0
		for l := range strings.Lines(body) {
			widest = max(widest, len(l))
		}
		if bound := len(body) + MaxTotalBytes*(1+widest) + lines*(2*widest+16); len(res.Text) > bound {
			t.Fatalf("%q: the text grew to %d bytes, over %d", body, len(res.Text), bound)
		}
	})
}
