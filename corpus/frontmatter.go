package corpus

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/ocean-safety/ingest/schema"
)

// Front matter as documentation sites write it: YAML between "---" lines
// (Hugo, Docusaurus, MkDocs, Obsidian, Jekyll) or TOML between "+++" lines
// (Hugo). The keys ingest reads are below; every other key is the site's
// business and is ignored, unless the config names it in metadata_keys.

// frontMatterKeys maps the keys sites use to the header field they fill.
var frontMatterKeys = map[string]string{
	"title": "title", "linktitle": "linkTitle",
	"description": "description",
	"lang":        "lang", "language": "lang", "locale": "lang",
	"source": "source", "url": "url", "canonical": "url", "canonical_url": "url", "canonicalurl": "url",
	"draft": "draft",
	"kind":  "kind",
	"beach": "beach", "place": "beach",
}

// field is one header value with the line it was read from.
type field struct {
	value string
	line  int
}

// header gathers a document's metadata from its front matter and header lines.
type header struct {
	title, linkTitle, description, source, url, kind, lang, beach, draft field
	metadata                                                             map[string][]string
}

// set fills the header field of key (a front-matter key or a header-line
// name) and reports whether ingest reads that key.
func (h *header) set(key, value string, line int) bool {
	f := field{strings.TrimSpace(value), line}
	switch frontMatterKeys[strings.ToLower(key)] {
	case "title":
		h.title = f
	case "linkTitle":
		h.linkTitle = f
	case "description":
		h.description = f
	case "source":
		h.source = f
	case "url":
		h.url = f
	case "kind":
		h.kind = f
	case "lang":
		h.lang = f
	case "beach":
		h.beach = f
	case "draft":
		h.draft = f
	default:
		return false
	}
	return true
}

// readFrontMatter reads a leading front-matter block into h and returns
// the offset where the Markdown body starts (0 when there is none).
func readFrontMatter(text string, h *header, opt Options, ds *diagnostics) int {
	var fence string
	switch {
	case strings.HasPrefix(text, "---\n"):
		fence = "---"
	case strings.HasPrefix(text, "+++\n"):
		fence = "+++"
	default:
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
		if l := strings.TrimRight(line, " \t"); l == fence || fence == "---" && l == "..." {
			end, body = off, next
			break
		}
		off = next
	}
	if end < 0 {
		ds.add(1, schema.SeverityError, "unclosed-front-matter", "front matter opened with \""+fence+"\" is never closed")
		return 0
	}
	var values map[string]any
	var lines map[string]int
	var err error
	if fence == "+++" {
		values, lines, err = readTOML(text[4:end])
	} else {
		values, lines, err = readYAML(text[4:end])
	}
	if err != nil {
		var pe positionedError
		line := 2
		if errors.As(err, &pe) {
			line = pe.line
		}
		ds.add(line, schema.SeverityError, "front-matter", "front matter is not valid "+map[string]string{"---": "YAML", "+++": "TOML"}[fence]+": "+firstErrLine(err))
		return body
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v, ok := scalar(values[k]); ok {
			h.set(k, v, lines[k])
		}
		for _, want := range opt.MetadataKeys {
			if strings.EqualFold(k, want) {
				if h.metadata == nil {
					h.metadata = map[string][]string{}
				}
				h.metadata[want] = strings_(values[k])
			}
		}
	}
	return body
}

// positionedError is a front-matter error at a line of the file.
type positionedError struct {
	line int
	err  error
}

func (e positionedError) Error() string { return e.err.Error() }

// readYAML decodes YAML front matter, with the line of each top-level key.
// The YAML starts on line 2 of the file.
func readYAML(src string) (map[string]any, map[string]int, error) {
	const firstLine = 2
	file, err := parser.ParseBytes([]byte(src), 0)
	if err != nil {
		line := firstLine
		var se *yaml.SyntaxError
		if errors.As(err, &se) && se.Token != nil {
			line = se.Token.Position.Line + firstLine - 1
		}
		return nil, nil, positionedError{line, err}
	}
	lines := map[string]int{}
	if len(file.Docs) > 0 && file.Docs[0].Body != nil {
		var kvs []*ast.MappingValueNode
		switch n := file.Docs[0].Body.(type) {
		case *ast.MappingNode:
			kvs = n.Values
		case *ast.MappingValueNode:
			kvs = []*ast.MappingValueNode{n}
		default:
			return nil, nil, positionedError{firstLine, errors.New("front matter must be a mapping of keys to values")}
		}
		for _, kv := range kvs {
			lines[kv.Key.String()] = kv.Key.GetToken().Position.Line + firstLine - 1
		}
	}
	values := map[string]any{}
	if err := decodeYAML(src, file, &values); err != nil {
		return nil, nil, positionedError{firstLine, err}
	}
	return values, lines, nil
}

// decodeYAML decodes front matter already parsed into file. One document
// without anchors (the front matter sites write) is decoded from that tree,
// not parsed a second time; anything else goes through yaml.Unmarshal,
// whose way with several documents and with anchors (it decodes an alias
// afresh) the tree decoder does not promise to repeat.
func decodeYAML(src string, file *ast.File, values *map[string]any) error {
	if len(file.Docs) == 1 && file.Docs[0].Body != nil && !strings.ContainsAny(src, "&*") {
		return yaml.NodeToValue(file.Docs[0].Body, values)
	}
	return yaml.Unmarshal([]byte(src), values)
}

var tomlKey = regexp.MustCompile(`^\s*"?([A-Za-z0-9_-]+)"?\s*=`)

// readTOML decodes TOML front matter, with the line of each top-level key.
func readTOML(src string) (map[string]any, map[string]int, error) {
	values := map[string]any{}
	if _, err := toml.Decode(src, &values); err != nil {
		line := 2
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line = pe.Position.Line + 1
		}
		return nil, nil, positionedError{line, err}
	}
	lines := map[string]int{}
	for i, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "[") {
			break // a table: its keys are not top-level
		}
		if m := tomlKey.FindStringSubmatch(l); m != nil {
			lines[m[1]] = i + 2
		}
	}
	return values, lines, nil
}

// scalar is a front-matter value read as text: a string, number or bool.
func scalar(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool, int, int64, uint64, float64:
		return fmt.Sprint(v), true
	}
	return "", false
}

// strings_ is a front-matter value as a list of strings: a scalar is a list
// of one, a list keeps its scalars, anything else is empty.
func strings_(v any) []string {
	if s, ok := scalar(v); ok {
		return []string{s}
	}
	var out []string
	if list, ok := v.([]any); ok {
		for _, x := range list {
			if s, ok := scalar(x); ok {
				out = append(out, s)
			}
		}
	}
	return out
}
