package include

import (
	"regexp"
	"strings"
)

// MDX sites (Docusaurus) show a file as code by importing its text and
// handing it to a CodeBlock:
//
//	import Main from '!!raw-loader!./main.go';
//
//	<CodeBlock language="go" title="main.go">{Main}</CodeBlock>
//
// The import is resolved as any include is (beside the page, in the folders
// above it, in includes.base; "@site/" names the site's folder, tried as a
// folder above the page), the CodeBlock becomes a fenced block of the file
// in its language, and the import line goes: it is markup, never text. A
// CodeBlock whose variable is no raw import (a component's own) is left to
// the Markdown format.

var (
	// import Main from '!!raw-loader!./main.go'; (webpack's raw-loader, one
	// or two "!"), or Vite's './main.go?raw'; a comment may follow.
	rawImportRe = regexp.MustCompile(`^[ \t]*import[ \t]+([A-Za-z_$][\w$]*)[ \t]+from[ \t]+(['"])(?:!!?raw-loader!([^'"\n]+)|([^'"\n]+)\?raw)(['"])[ \t]*;?[ \t]*(?://.*)?$`)
	// <CodeBlock language="go" title="x">{Main}</CodeBlock>, on one line or
	// several
	codeBlockRe = regexp.MustCompile(`^([ \t]*)<CodeBlock\b([^>]*)>\s*\{[ \t]*([A-Za-z_$][\w$]*)[ \t]*\}\s*</CodeBlock>[ \t]*$`)
	languageRe  = regexp.MustCompile(`\blanguage=(?:"([\w+#-]+)"|'([\w+#-]+)'|\{["'` + "`" + `]([\w+#-]+)["'` + "`" + `]\})`)
)

// codeBlockLines bounds how many lines a CodeBlock element may take: a tag,
// its variable and its closing tag.
const codeBlockLines = 8

// rawImports are the raw imports of text: each variable's file.
func rawImports(text string) map[string]string {
	if !strings.Contains(text, "raw") {
		return nil
	}
	var m map[string]string
	for l := range strings.Lines(text) {
		if name, file, ok := rawImport(strings.TrimSuffix(l, "\n")); ok {
			if m == nil {
				m = map[string]string{}
			}
			m[name] = file
		}
	}
	return m
}

// rawImport reads a raw import line: its variable and its file.
func rawImport(line string) (name, file string, ok bool) {
	if !strings.Contains(line, "import") {
		return "", "", false
	}
	m := rawImportRe.FindStringSubmatch(line)
	if m == nil || m[2] != m[5] {
		return "", "", false
	}
	file = m[3] + m[4]
	return m[1], strings.TrimPrefix(file, "@site/"), true
}

// codeBlock reads a CodeBlock element at the start of lines whose variable
// is one of imports: the include it stands for, and how many lines it
// takes.
func codeBlock(lines []string, imports map[string]string) (directive, int, bool) {
	if !strings.HasPrefix(strings.TrimLeft(lines[0], " \t"), "<CodeBlock") {
		return directive{}, 0, false
	}
	var el strings.Builder
	for n, l := range lines[:min(len(lines), codeBlockLines)] {
		el.WriteString(l)
		if !strings.Contains(l, "</CodeBlock>") {
			continue
		}
		m := codeBlockRe.FindStringSubmatch(strings.TrimSuffix(el.String(), "\n"))
		if m == nil || imports[m[3]] == "" {
			return directive{}, 0, false
		}
		d := directive{indent: m[1], name: imports[m[3]]}
		d.code = language(d.name)
		if lang := languageRe.FindStringSubmatch(m[2]); lang != nil {
			d.code = lang[1] + lang[2] + lang[3]
		}
		return d, n + 1, true
	}
	return directive{}, 0, false
}
