package include

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// site lays out a corpus folder and a docs_src folder beside it, and a
// secret outside both.
func site(t testing.TB) (root, src, outside string) {
	t.Helper()
	dir := t.TempDir()
	root, src, outside = filepath.Join(dir, "docs"), filepath.Join(dir, "docs_src"), filepath.Join(dir, "private")
	files := map[string]string{
		"docs/en/guide.md":                "# Guide\n",
		"docs/en/snippets/intro.md":       "Intro words.\n--8<-- \"en/snippets/deeper.md\"\n",
		"docs/en/snippets/deeper.md":      "Deeper words.\n",
		"docs/en/snippets/loop-a.md":      "--8<-- \"en/snippets/loop-b.md\"\n",
		"docs/en/snippets/loop-b.md":      "--8<-- \"en/snippets/loop-a.md\"\n",
		"docs/en/_includes/note.md":       "A Hugo partial.\n",
		"docs/en/_includes/translated.md": "---\ndefault_lang_commit: 7d0c3f2\ndrifted_from_default: true\n---\n\n## Jaeger\n",
		"docs/en/_includes/toml.md":       "+++\ntitle = \"x\"\n+++\nTOML's.\n",
		"docs/en/_includes/unclosed.md":   "---\nnever closed\n",
		"docs_src/app.py":                 "import fastapi\n# --8<-- [start:make]\napp = fastapi.FastAPI()\n# --8<-- [end:make]\nprint(app)\n",
		"private/secret.txt":              "the secret\n",
		"docs/en/snippets/store.yaml":     "{% raw %}\nkind: SecretStore\nvalue: \"{{ .token }}\"\n{%- endraw %}\n",
		"docs_src/examples_test.go":       "package x\n\nfunc ExampleRun() {\n\t// Run a container\n\tctr, err := Run(ctx, \"redis:7\")\n\tif err != nil {\n\t\treturn\n\t}\n}\n\nfunc Open() {\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "en", "link.txt")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	big := strings.Repeat("x", MaxFileBytes+1)
	if err := os.WriteFile(filepath.Join(root, "en", "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, src, outside
}

func TestExpand(t *testing.T) {
	root, _, _ := site(t)
	r, err := New(root, []string{"../docs_src"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, body string
		want       string // in the expanded text
		files      int
		diag       string // in the diagnostic, "" for none
	}{
		{name: "snippet nested", body: "--8<-- \"snippets/intro.md\"\n", want: "Intro words.\nDeeper words.\n", files: 2},
		{name: "snippet lines", body: "```python\n--8<-- \"app.py:3:3\"\n```\n", want: "```python\napp = fastapi.FastAPI()\n```", files: 1},
		{name: "snippet section", body: "--8<-- \"app.py:make\"\n", want: "app = fastapi.FastAPI()\n", files: 1},
		{name: "escaped snippet", body: ";--8<-- \"app.py\"\n", want: "--8<-- \"app.py\"\n"},
		{name: "fastapi code", body: "{* ../../docs_src/app.py hl[3] ln[1:1] *}\n", want: "```python\nimport fastapi\n```\n", files: 1},
		{name: "snippet ln selector", body: "--8<-- \"../docs_src/app.py[ln:1-1,5-5]\"\n", want: "import fastapi\nprint(app)\n", files: 1},
		{name: "markdown-include ln selector", body: "{!../../docs_src/app.py[ln:3-3]!}\n", want: "app = fastapi.FastAPI()\n", files: 1},
		{name: "mdx raw import", body: "import App from '!!raw-loader!../../docs_src/app.py';// the code\n\n<CodeBlock language=\"py\" title=\"app.py\">\n  {App}\n</CodeBlock>\n",
			want: "\n```py\nimport fastapi\n", files: 1},
		{name: "mdx raw import, one line, its language from the file", body: "import App from \"!raw-loader!../../docs_src/app.py\"\n<CodeBlock>{App}</CodeBlock>\n",
			want: "```python\nimport fastapi\n", files: 1},
		{name: "mdx vite raw import", body: "import App from '../../docs_src/app.py?raw'\n<CodeBlock language={'python'}>{App}</CodeBlock>\n", want: "```python\nimport", files: 1},
		{name: "mdx CodeBlock of another variable", body: "import App from '!!raw-loader!../../docs_src/app.py'\n<CodeBlock>{other}</CodeBlock>\n",
			want: "<CodeBlock>{other}</CodeBlock>\n"},
		{name: "mdx raw import out of the roots", body: "import S from '!!raw-loader!../../private/secret.txt'\n<CodeBlock>{S}</CodeBlock>\n", diag: "outside"},
		{name: "mdx raw import in code is code", body: "```\nimport App from '!!raw-loader!../../docs_src/app.py'\n<CodeBlock>{App}</CodeBlock>\n```\n",
			want: "```\nimport App from '!!raw-loader!../../docs_src/app.py'\n<CodeBlock>{App}</CodeBlock>\n```\n"},
		{name: "markdown-include", body: "{!../../docs_src/app.py!}\n", want: "print(app)", files: 1},
		{name: "jinja include, words after it on its line", body: "{% include 'snippets/deeper.md' %}:\n", want: "Deeper words.:\n", files: 1},
		{name: "jinja include, two on a line: not an include line", body: "{% include 'snippets/deeper.md' %} {% include 'snippets/deeper.md' %}\n",
			want: "{% include 'snippets/deeper.md' %} {% include"},
		{name: "jinja include missing, words after it kept", body: "{% include 'snippets/nope.yaml' %} (the store)\n", want: " (the store)\n", diag: "no such file"},
		{name: "jinja include of Markdown expands what it includes", body: "{% include 'snippets/intro.md' %}\n", want: "Intro words.\nDeeper words.\n", files: 2},
		{name: "jinja include renders raw tags as nothing", body: "```yaml\n{% include 'snippets/store.yaml' %}\n```\n", want: "```yaml\nkind: SecretStore\nvalue: \"{{ .token }}\"\n```\n", files: 1},
		{name: "a snippet keeps them: no template renders it", body: "--8<-- \"snippets/store.yaml\"\n", want: "{% raw %}\nkind", files: 1},
		{name: "include-markdown", body: "{% include-markdown \"snippets/deeper.md\" %}\n", want: "Deeper words.", files: 1},
		{name: "hugo include", body: "{{% include \"note.md\" %}}\n", want: "A Hugo partial.", files: 1},
		{name: "hugo include without the partial's front matter", body: "Intro:\n\n{{% include \"translated.md\" %}}\n", want: "Intro:\n\n\n## Jaeger\n", files: 1},
		{name: "hugo include without TOML front matter", body: "{{% include \"toml.md\" %}}\n", want: "TOML's.", files: 1},
		{name: "hugo include, front matter never closed: kept", body: "{{% include \"unclosed.md\" %}}\n", want: "---\nnever closed", files: 1},
		{name: "codeinclude inside_block", body: "<!--codeinclude-->\n[Run a container](../../docs_src/examples_test.go) inside_block:ExampleRun\n<!--/codeinclude-->\n",
			want: "```go\n// Run a container\nctr, err := Run(ctx, \"redis:7\")\nif err != nil {\n\treturn\n}\n```\n", files: 1},
		{name: "codeinclude block", body: "<!--codeinclude-->\n[Run](../../docs_src/examples_test.go) block:ExampleRun\n<!--/codeinclude-->\n",
			want: "```go\nfunc ExampleRun() {\n\t// Run", files: 1},
		{name: "codeinclude lines, two links", body: "<!--codeinclude-->\n[A](../../docs_src/examples_test.go) lines:1-1\n\n[B](../../docs_src/app.py) lines:5-5\n<!--/codeinclude-->\n",
			want: "```go\npackage x\n```\n\n```python\nprint(app)\n```\n", files: 2},
		{name: "codeinclude missing file", body: "<!--codeinclude-->\n[Run](../../docs_src/nope_test.go) inside_block:ExampleRun\n<!--/codeinclude-->\n", want: "\n", diag: "no such file"},
		{name: "codeinclude block not found", body: "<!--codeinclude-->\n[Run](../../docs_src/examples_test.go) inside_block:ExampleNope\n<!--/codeinclude-->\n", diag: "not found"},
		{name: "codeinclude block never closed", body: "<!--codeinclude-->\n[Run](../../docs_src/examples_test.go) inside_block:Open\n<!--/codeinclude-->\n", diag: "never closes"},
		{name: "codeinclude never closed: left alone", body: "<!--codeinclude-->\n[Run](../../docs_src/examples_test.go) inside_block:ExampleRun\n", want: "<!--codeinclude-->\n[Run]"},
		{name: "dot-dot escape", body: "--8<-- \"../../private/secret.txt\"\n", diag: "outside"},
		{name: "absolute path", body: "--8<-- \"" + filepath.ToSlash(filepath.Join(root, "..", "private", "secret.txt")) + "\"\n", diag: "absolute"},
		{name: "symlink out", body: "--8<-- \"link.txt\"\n", diag: "outside"},
		{name: "url", body: "--8<-- \"https://example.org/x.md\"\n", diag: "URL"},
		{name: "cycle", body: "--8<-- \"snippets/loop-a.md\"\n", diag: "cycle"},
		{name: "oversize", body: "--8<-- \"big.txt\"\n", diag: "bytes"},
		{name: "missing", body: "Text.\n\n{* ../../docs_src/nope.py *}\n", want: "Text.\n\n\n", diag: "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := r.Expand("en/guide.md", tc.body)
			if !strings.Contains(res.Text, tc.want) {
				t.Errorf("got text %q, want it to hold %q", res.Text, tc.want)
			}
			if len(res.Files) != tc.files && tc.diag == "" {
				t.Errorf("got %d files, want %d", len(res.Files), tc.files)
			}
			if tc.diag == "" && len(res.Diags) > 0 {
				t.Errorf("got diagnostic %q, want none", res.Diags[0].Message)
			}
			if tc.diag != "" {
				if len(res.Diags) == 0 || !strings.Contains(res.Diags[0].Message, tc.diag) {
					t.Fatalf("got diagnostics %v, want one saying %q", res.Diags, tc.diag)
				}
				if d := res.Diags[0]; d.Path != "en/guide.md" || d.Line < 1 {
					t.Errorf("got diagnostic at %s:%d, want the document and a line", d.Path, d.Line)
				}
				if strings.Contains(res.Text, "secret") || strings.Contains(res.Text, "8<") && tc.name != "cycle" {
					t.Errorf("got text %q: a refused include must leave nothing of the file or its marker", res.Text)
				}
			}
			for _, s := range res.Spans {
				if s.Start < 0 || s.End > len(res.Text) || s.Start > s.End {
					t.Errorf("got span %v outside the %d bytes of text", s, len(res.Text))
				}
			}
		})
	}
}

// TestResolverKeepsWhatItRead: a resolver reads an included file once
// while it keeps it (within its bounds, TestResolverForgets): a page asked
// again (its input hash, then its text) and the pages after it see the
// bytes it first read, even when the file changed since, and a file
// missing then stays missing; a new run's resolver reads the file as it is
// now.
func TestResolverKeepsWhatItRead(t *testing.T) {
	root, _, _ := site(t)
	r, err := New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	deeper := filepath.Join(root, "en", "snippets", "deeper.md")
	for _, tc := range []struct {
		name, body, want string
		change           func() error
	}{
		{"first read", "--8<-- \"snippets/deeper.md\"\n", "Deeper words.\n", nil},
		{"changed since", "--8<-- \"snippets/deeper.md\"\n", "Deeper words.\n", func() error { return os.WriteFile(deeper, []byte("Changed words.\n"), 0o644) }},
		{"missing, then there", "--8<-- \"snippets/late.md\"\n", "\n", nil},
		{"there since", "--8<-- \"snippets/late.md\"\n", "\n", func() error {
			return os.WriteFile(filepath.Join(root, "en", "snippets", "late.md"), []byte("Late.\n"), 0o644)
		}},
	} {
		if tc.change != nil {
			if err := tc.change(); err != nil {
				t.Fatal(err)
			}
		}
		if got := r.Expand("en/guide.md", tc.body).Text; got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	fresh, err := New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fresh.Expand("en/guide.md", "--8<-- \"snippets/deeper.md\"\n--8<-- \"snippets/late.md\"\n").Text; got != "Changed words.\nLate.\n" {
		t.Errorf("a new resolver: got %q, want the files as they are now", got)
	}
}

// TestResolverForgets: what a resolver keeps stays within its bounds
// however many files a corpus names (here, thousands that are not there),
// and it still reads what it forgot.
func TestResolverForgets(t *testing.T) {
	root, _, _ := site(t)
	r, err := New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 * maxSeen {
		r.Expand("en/guide.md", fmt.Sprintf("--8<-- \"snippets/none-%d.md\"\n", i))
		if len(r.seen) > maxSeen || r.held > maxSeenText {
			t.Fatalf("after %d files: %d kept, %d bytes, want at most %d and %d", i+1, len(r.seen), r.held, maxSeen, maxSeenText)
		}
	}
	if got := r.Expand("en/guide.md", "--8<-- \"snippets/deeper.md\"\n").Text; got != "Deeper words.\n" {
		t.Errorf("got %q, want the file", got)
	}
}

// TestMentions: every directive form is mentioned (a document holding one
// is read for what it includes); a Hugo site's other shortcodes, Jinja's
// other tags and braces in prose are not, and expand to themselves.
func TestMentions(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"a snippet", "--8<-- \"snippets/intro.md\"\n", true},
		{"a block of snippets", "--8<--\nsnippets/intro.md\n--8<--\n", true},
		{"a Jinja include", "{% include \"snippets/intro.md\" %}\n", true},
		{"include-markdown, trimmed", "{%- include-markdown 'snippets/intro.md' -%}\n", true},
		{"FastAPI's file", "{* ../../docs_src/app.py hl[3] *}\n", true},
		{"markdown-include", "{!../../docs_src/app.py!}\n", true},
		{"a Hugo include", "{{% include \"note.md\" %}}\n", true},
		{"a Hugo readfile", "{{< readfile file=\"app.py\" code=\"true\" >}}\n", true},
		{"a Hugo readfile, trimmed", "{{<- readfile \"app.py\" >}}\n", true},
		{"an MDX raw import", "import A from '!!raw-loader!../../docs_src/app.py';\n<CodeBlock>{A}</CodeBlock>\n", true},
		{"a Vite raw import", "import A from './app.py?raw';\n", true},
		{"a codeinclude block", "<!--codeinclude-->\n[Run](../../docs_src/app.py)\n<!--/codeinclude-->\n", true},
		{"plain prose", "# Title\n\nWords, and a list:\n\n- one\n", false},
		{"Hugo shortcodes", "{{< alert title=\"Note\" >}}\nWords.\n{{< /alert >}}\n{{% pageinfo %}}x{{% /pageinfo %}}\n", false},
		{"Hugo params", "The version is {{< param version >}}.\n", false},
		{"Jinja's other tags", "{% raw %}{{ x }}{% endraw %}\n{% if x %}y{% endif %}\n", false},
		{"braces in prose and code", "Use `{key: value}` or `map[string]{}`.\n```go\nif x { return }\n```\n", false},
	}
	root, _, _ := site(t)
	r, err := New(root, []string{"../docs_src"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Mentions(tt.text); got != tt.want {
				t.Fatalf("Mentions = %v, want %v", got, tt.want)
			}
			e := &expansion{r: r, doc: "en/guide.md"}
			text, _ := e.expand(tt.text, nil, 0, "")
			if changed := text != tt.text || len(e.res.Files) > 0 || len(e.res.Diags) > 0; changed != tt.want {
				t.Errorf("the full expansion changed the text: %v (%q, %d files, %d diagnostics), want %v", changed, text, len(e.res.Files), len(e.res.Diags), tt.want)
			}
		})
	}
}
