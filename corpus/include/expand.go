package include

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/corpus/stamp"
	"github.com/ocean-safety/ingest/schema"
)

// The directives, each a whole line (its indentation is the included text's).
var (
	// --8<-- "file.md", --8<-- 'file.py:3:10', --8<-- "file.md:section";
	// ";--8<--" is the escape that shows the marker itself.
	snippetRe      = regexp.MustCompile(`^([ \t]*)(;?)-+8<-+[ \t]+["']([^"'\n]+)["'][ \t]*$`)
	snippetBlockRe = regexp.MustCompile(`^[ \t]*-+8<-+[ \t]*$`)
	// {% include "file" %} (raw) and {% include-markdown "file" start="…" end="…" %}
	jinjaRe = regexp.MustCompile(`^([ \t]*)\{%-?[ \t]*(include-markdown|include)[ \t]+["']([^"'\n]+)["']([^%\n]*?)-?%\}([^\n]*)$`)
	// {* ../../docs_src/app.py hl[3] ln[1:8] *}: the file as a code block
	fastapiRe = regexp.MustCompile(`^([ \t]*)\{\*[ \t]+(\S+)([^*\n]*)\*\}[ \t]*$`)
	// {!../../docs_src/app.py!}, {!> file!}
	mdIncludeRe = regexp.MustCompile(`^([ \t]*)\{!>?[ \t]*([^!\n]+?)[ \t]*!\}[ \t]*$`)
	// {{% include "file.md" %}}, {{< readfile file="x.go" >}}
	hugoRe = regexp.MustCompile(`^([ \t]*)\{\{[<%]-?[ \t]*(include|readfile)[ \t]+(?:file=)?["']?([^"'\s>%}]+)["']?[^}\n]*[>%]\}\}[ \t]*$`)

	optionRe  = regexp.MustCompile(`(start|end)=["']([^"']*)["']`)
	lnRe      = regexp.MustCompile(`\bln\[([^\]]*)\]`)
	sectionRe = regexp.MustCompile(`-+8<-+[ \t]*\[(start|end):([\w-]+)\]`)
)

// mentionRe finds what a brace directive starts with: "{% include",
// "{{% include", "{{< readfile", and the "{*" and "{!" forms. A Hugo site
// writes "{{<" and "{{%" for every shortcode; only these two include.
var mentionRe = regexp.MustCompile(`\{(?:%-?[ \t]*include|\{[<%]-?[ \t]*(?:include|readfile)|\*|!)`)

// Mentions reports whether text holds anything a directive starts with: a
// snippet's 8<, a brace directive, an MDX raw import, a codeinclude block.
// Text that mentions none expands to itself, includes nothing and leaves no
// diagnostic, so a caller that only wants what a document includes need
// not read it further (what an unchanged corpus is hashed by).
func Mentions(text string) bool {
	for _, lit := range []string{"8<", "raw-loader!", "?raw", "codeinclude"} {
		if strings.Contains(text, lit) {
			return true
		}
	}
	return mentionRe.MatchString(text)
}

// directive is one include line read.
type directive struct {
	indent, name, sel string // the file, and the part of it: "3:10,12:", a section's name
	start, end        string // include-markdown's start and end markers
	code              string // a language: the text goes in a fenced block of it
	markdown, hugo    bool   // expanded in turn; looked up in _includes folders too
	after             string // what follows a Jinja tag on its line, rendered after the file's text
	block             string // codeinclude's block:X or inside_block:X (codeinclude.go)
	inside            bool   // inside_block: without the block's first and last lines
	jinja             bool   // a Jinja include: the file is rendered as a template (its raw tags go)
}

// expansion is one document's expansion under way.
type expansion struct {
	r     *Resolver
	doc   string
	res   Result
	total int
	deps  map[string]bool // the paths in res.Deps
}

// Expand expands the include directives of text, the body of document doc
// (corpus-relative). Directives in fenced code are expanded when their file
// is read (snippets are code's own way to include) and left alone when not:
// they are the code's then, not the site's.
func (r *Resolver) Expand(doc, text string) Result {
	if !Mentions(text) {
		return Result{Text: text}
	}
	e := &expansion{r: r, doc: doc}
	e.res.Text, e.res.Spans = e.expand(text, nil, 0, "")
	return e.res
}

// expand expands text, included by stack (the files open, outermost first)
// at line base of the document (0: text is the document).
func (e *expansion) expand(text string, stack []string, base int, within string) (string, []Span) {
	var out strings.Builder
	var spans []Span
	lines := strings.SplitAfter(text, "\n")
	imports := rawImports(text) // MDX's raw imports (mdx.go)
	fence := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		line := strings.TrimRight(l, "\n")
		t := strings.TrimLeft(line, " \t")
		if fence != "" && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
			fence = ""
		} else if fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			fence = t[:3]
		}
		if imports != nil && fence == "" {
			if _, _, ok := rawImport(line); ok { // markup: the line goes, with its newline
				continue
			}
			if d, n, ok := codeBlock(lines[i:], imports); ok {
				e.one(&out, &spans, d, stack, lineOf(base, i), within, "")
				i += n - 1
				if strings.HasSuffix(lines[i], "\n") {
					out.WriteByte('\n')
				}
				continue
			}
		}
		if fence == "" && strings.Contains(line, "codeinclude") {
			if ds, at, n, ok := codeincludes(lines[i:]); ok {
				for k, d := range ds {
					if k > 0 {
						out.WriteString("\n\n")
					}
					e.one(&out, &spans, d, stack, lineOf(base, i+at[k]), within, "")
				}
				i += n - 1
				if strings.HasSuffix(lines[i], "\n") {
					out.WriteByte('\n')
				}
				continue
			}
		}
		d, ok := parse(line)
		if !ok {
			if fence == "" && directiveLike(line) && snippetBlockRe.MatchString(line) { // a block of snippet paths, one a line
				if j := blockEnd(lines, i); j > i {
					for _, name := range lines[i+1 : j] {
						if n := strings.TrimSpace(name); n != "" && !strings.HasPrefix(n, ";") {
							e.one(&out, &spans, directive{indent: "", name: n, markdown: true}, stack, lineOf(base, i), within, "")
						}
					}
					i = j
					continue
				}
			}
			out.WriteString(strings.Replace(l, ";--8<--", "--8<--", 1))
			continue
		}
		e.one(&out, &spans, d, stack, lineOf(base, i), within, fence)
		if strings.HasSuffix(l, "\n") {
			out.WriteByte('\n')
		}
	}
	return out.String(), spans
}

// dep adds d to the expansion's Deps, once.
func (e *expansion) dep(d stamp.Dep) {
	if e.deps[d.Path] {
		return
	}
	if e.deps == nil {
		e.deps = map[string]bool{}
	}
	e.deps[d.Path] = true
	e.res.Deps = append(e.res.Deps, d)
}

// one expands directive d into out, or leaves a diagnostic (and, in code,
// the line as written).
func (e *expansion) one(out *strings.Builder, spans *[]Span, d directive, stack []string, line int, within, fence string) {
	f, text, err := e.r.read(e.doc, d.name, d.hugo, e.dep)
	if err == nil && slices.Contains(stack, f.Path) {
		err = fmt.Errorf("a cycle: %s includes itself", f.Path)
	}
	if err == nil && len(stack) >= MaxDepth {
		err = fmt.Errorf("nested deeper than %d includes", MaxDepth)
	}
	if err == nil {
		text, err = d.part(text)
	}
	if err == nil && d.jinja {
		text = withoutRawTags(text)
	}
	if err == nil && e.total+len(text) > MaxTotalBytes {
		err = fmt.Errorf("the document's includes would exceed %d bytes", MaxTotalBytes)
	}
	if err != nil {
		where := ""
		if within != "" {
			where = " (in " + within + ")"
		}
		e.res.Diags = append(e.res.Diags, schema.Diagnostic{Path: e.doc, Line: line, Severity: schema.SeverityWarning, Code: Unresolved,
			Message: fmt.Sprintf("include %q%s: %v; left out of the text", d.name, where, err)})
		if fence != "" {
			out.WriteString(d.indent + "--8<-- \"" + d.name + "\"") // code keeps a line where it had one
		}
		out.WriteString(d.after)
		return
	}
	e.total += len(text)
	if !slices.ContainsFunc(e.res.Files, func(g File) bool { return g.Path == f.Path }) {
		e.res.Files = append(e.res.Files, f)
	}
	var inner []Span
	if d.markdown && (strings.HasSuffix(f.Path, ".md") || strings.HasSuffix(f.Path, ".markdown")) {
		text, inner = e.expand(text, append(stack, f.Path), line, f.Path)
	}
	text = strings.TrimSuffix(text, "\n")
	start := out.Len()
	if d.code != "" {
		out.WriteString(d.indent + "```" + d.code + "\n")
	}
	body := out.Len()
	for k, l := range strings.SplitAfter(text, "\n") {
		if k > 0 || d.code != "" {
			out.WriteString(d.indent)
		}
		out.WriteString(l)
	}
	for _, s := range inner {
		*spans = append(*spans, Span{s.Start + body, s.End + body, s.Path})
	}
	if d.code != "" {
		out.WriteString("\n" + d.indent + "```")
	}
	*spans = append(*spans, Span{start, out.Len(), f.Path})
	out.WriteString(d.after)
}

// parse reads an include line.
func parse(line string) (directive, bool) {
	if !directiveLike(line) {
		return directive{}, false
	}
	if m := snippetRe.FindStringSubmatch(line); m != nil && m[2] == "" {
		name, sel := splitSelector(m[3])
		return directive{indent: m[1], name: name, sel: sel, markdown: true}, true
	}
	if m := jinjaRe.FindStringSubmatch(line); m != nil && !strings.Contains(m[5], "{%") {
		// A template renders the words after a tag where they stand: ESO's
		// "{% include 'ngrok-push-secret.yaml' %}:" is the file, then ":".
		d := directive{indent: m[1], name: m[3], markdown: true, after: strings.TrimRight(m[5], " \t"), jinja: m[2] == "include"}
		for _, o := range optionRe.FindAllStringSubmatch(m[4], -1) {
			if o[1] == "start" {
				d.start = o[2]
			} else {
				d.end = o[2]
			}
		}
		return d, true
	}
	if m := fastapiRe.FindStringSubmatch(line); m != nil {
		d := directive{indent: m[1], name: m[2], code: language(m[2])}
		if ln := lnRe.FindStringSubmatch(m[3]); ln != nil {
			d.sel = ln[1]
		}
		return d, true
	}
	if m := mdIncludeRe.FindStringSubmatch(line); m != nil {
		name, sel := splitLn(m[2])
		return directive{indent: m[1], name: name, sel: sel, markdown: true}, true
	}
	if m := hugoRe.FindStringSubmatch(line); m != nil {
		return directive{indent: m[1], name: m[3], markdown: m[2] == "include", hugo: true}, true
	}
	return directive{}, false
}

// directiveLike reports whether line may hold a directive parse reads: each
// one's pattern opens, after spaces and tabs, with "{" (Jinja, FastAPI,
// include-markdown, Hugo) or a snippet's "-" or ";". Most lines do not, and
// the patterns cost a corpus's hashing a third of an unchanged night.
func directiveLike(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return t != "" && (t[0] == '{' || t[0] == '-' || t[0] == ';') && strings.ContainsAny(t, "8{")
}

// splitSelector cuts a snippet's name at the ":" that starts its lines or
// section ("app.py:3:10", "guide.md:install").
func splitSelector(name string) (string, string) {
	if n, sel := splitLn(name); sel != "" {
		return n, sel
	}
	slash := strings.LastIndexByte(name, '/')
	if i := strings.IndexByte(name[slash+1:], ':'); i >= 0 {
		return name[:slash+1+i], name[slash+1+i+1:]
	}
	return name, ""
}

// splitLn cuts a name at the line selector markdown-include's and SQLModel's
// docs write ("app.py[ln:1-7]", "app.py[ln:1-7,10-12]") into the ranges of
// a snippet selector ("1:7,10:12"); a name without one is returned whole.
func splitLn(name string) (string, string) {
	i := strings.LastIndex(name, "[ln:")
	if i <= 0 || !strings.HasSuffix(name, "]") {
		return name, ""
	}
	return name[:i], strings.ReplaceAll(name[i+len("[ln:"):len(name)-1], "-", ":")
}

// language is the fence language of a file, by its extension.
func language(name string) string {
	switch ext := strings.TrimPrefix(path.Ext(name), "."); ext {
	case "py":
		return "python"
	case "js":
		return "javascript"
	case "ts":
		return "typescript"
	case "":
		return "text"
	default:
		return ext
	}
}

// blockEnd is the line closing a snippet block opened at i, or i if none
// closes it within a few lines.
func blockEnd(lines []string, i int) int {
	for j := i + 1; j < len(lines) && j <= i+64; j++ {
		if snippetBlockRe.MatchString(strings.TrimRight(lines[j], "\n")) {
			return j
		}
	}
	return i
}

func lineOf(base, i int) int {
	if base > 0 {
		return base
	}
	return i + 1
}
