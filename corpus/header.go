package corpus

import (
	"errors"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/ocean-safety/ingest/schema"
)

// field is one header value with the line it was read from.
type field struct {
	value string
	line  int
}

// header gathers a document's metadata from its front matter and header lines.
type header struct {
	title, source, kind, lang, beach field
}

func (h *header) set(key, value string, line int) bool {
	f := field{strings.TrimSpace(value), line}
	switch strings.ToLower(key) {
	case "title":
		h.title = f
	case "source":
		h.source = f
	case "kind":
		h.kind = f
	case "lang":
		h.lang = f
	case "beach":
		h.beach = f
	default:
		return false
	}
	return true
}

// readFrontMatter reads a leading YAML block ("---" … "---") into h and
// returns the offset where the Markdown body starts (0 when there is none).
func readFrontMatter(text string, h *header, ds *diagnostics) int {
	if !strings.HasPrefix(text, "---\n") {
		return 0
	}
	end, body := -1, 0
	for off := 4; off < len(text); {
		nl := strings.IndexByte(text[off:], '\n')
		line := text[off:]
		next := len(text)
		if nl >= 0 {
			line, next = text[off:off+nl], off+nl+1
		}
		if l := strings.TrimRight(line, " \t"); l == "---" || l == "..." {
			end, body = off, next
			break
		}
		off = next
	}
	if end < 0 {
		ds.add(1, schema.SeverityError, "unclosed-front-matter", "front matter opened with \"---\" is never closed")
		return 0
	}
	readYAML(text[4:end], h, ds)
	return body
}

// readYAML reads the front-matter keys with their lines. The YAML starts on
// line 2 of the file.
func readYAML(src string, h *header, ds *diagnostics) {
	const firstLine = 2
	file, err := parser.ParseBytes([]byte(src), 0)
	if err != nil {
		line := firstLine
		var se *yaml.SyntaxError
		if errors.As(err, &se) && se.Token != nil {
			line = se.Token.Position.Line + firstLine - 1
		}
		ds.add(line, schema.SeverityError, "front-matter", "front matter is not valid YAML: "+firstErrLine(err))
		return
	}
	if len(file.Docs) == 0 || file.Docs[0].Body == nil {
		return
	}
	var values []*ast.MappingValueNode
	switch n := file.Docs[0].Body.(type) {
	case *ast.MappingNode:
		values = n.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{n}
	default:
		ds.add(firstLine, schema.SeverityError, "front-matter", "front matter must be a mapping of keys to values")
		return
	}
	for _, mv := range values {
		line := mv.Key.GetToken().Position.Line + firstLine - 1
		key := mv.Key.String()
		val := ""
		if mv.Value != nil {
			val = strings.Trim(mv.Value.String(), "\"'")
		}
		if !h.set(key, val, line) {
			ds.add(line, schema.SeverityWarning, "unknown-header", "unknown front-matter key "+quote(key)+" (known: title, source, kind, lang, beach)")
		}
	}
}

// readTitle reads the "# Title" line that opens the body and the header lines
// directly below it ("Source: …", "Kind: …"), and returns the offset where
// the content starts.
func readTitle(text string, body int, h *header, ds *diagnostics) int {
	off, line := body, 1+strings.Count(text[:body], "\n")
	next := func() (string, int) {
		nl := strings.IndexByte(text[off:], '\n')
		if nl < 0 {
			return text[off:], len(text)
		}
		return text[off : off+nl], off + nl + 1
	}
	for off < len(text) { // blank lines before the title
		l, n := next()
		if strings.TrimSpace(l) != "" {
			break
		}
		off, line = n, line+1
	}
	l, n := next()
	title, ok := atxTitle(l)
	if !ok {
		return body
	}
	h.title = field{title, line}
	off, line = n, line+1
	for off < len(text) {
		l, n := next()
		key, val, ok := headerLine(l)
		if !ok {
			break
		}
		if !h.set(key, val, line) {
			ds.add(line, schema.SeverityWarning, "unknown-header", "unknown header line "+quote(key)+" (known: Source, Kind, Lang, Beach)")
		}
		off, line = n, line+1
	}
	return off
}

// atxTitle returns the text of a level-1 ATX heading line.
func atxTitle(l string) (string, bool) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || !strings.HasPrefix(t, "#") {
		return "", false
	}
	t = t[1:]
	if t != "" && t[0] != ' ' && t[0] != '\t' {
		return "", false
	}
	t = strings.TrimSpace(t)
	if s := strings.TrimRight(t, "#"); s != t && (s == "" || strings.HasSuffix(s, " ")) {
		t = strings.TrimSpace(s) // closing sequence "# Title #"
	}
	return t, t != ""
}

// headerLine splits "Key: value" where Key is a single word.
func headerLine(l string) (key, val string, ok bool) {
	i := strings.IndexByte(l, ':')
	if i <= 0 || (i+1 < len(l) && l[i+1] != ' ' && l[i+1] != '\t') {
		return "", "", false
	}
	for j, r := range l[:i] {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (j == 0 || r != '-' && r != '_') {
			return "", "", false
		}
	}
	return l[:i], l[i+1:], true
}

func quote(s string) string { return "\"" + s + "\"" }

func firstErrLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
