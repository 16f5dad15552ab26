package corpus

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

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
	f := h.field(key)
	if f == nil {
		return false
	}
	*f = field{strings.TrimSpace(value), line}
	return true
}

// field is the header field key fills; nil for a key ingest does not read.
func (h *header) field(key string) *field {
	switch frontMatterKeys[strings.ToLower(key)] {
	case "title":
		return &h.title
	case "linkTitle":
		return &h.linkTitle
	case "description":
		return &h.description
	case "source":
		return &h.source
	case "url":
		return &h.url
	case "kind":
		return &h.kind
	case "lang":
		return &h.lang
	case "beach":
		return &h.beach
	case "draft":
		return &h.draft
	}
	return nil
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
		values, lines, err = readYAML(text[4:end], func(k string) bool { return reads(k, opt) })
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

// reads reports whether ingest uses the value of front-matter key k: a
// header field's or a configured metadata key's.
func reads(k string, opt Options) bool {
	if frontMatterKeys[strings.ToLower(k)] != "" {
		return true
	}
	for _, want := range opt.MetadataKeys {
		if strings.EqualFold(k, want) {
			return true
		}
	}
	return false
}

// positionedError is a front-matter error at a line of the file.
type positionedError struct {
	line int
	err  error
}

func (e positionedError) Error() string { return e.err.Error() }

// yamlFirstLine is the line of the file the YAML starts on, after "---".
const yamlFirstLine = 2

// readYAML decodes YAML front matter, with the line of each top-level key.
// Front matter in the plain shape most pages use is read directly (see
// readSimpleYAML); the rest is parsed in full. reads tells which keys'
// values are wanted.
func readYAML(src string, reads func(key string) bool) (map[string]any, map[string]int, error) {
	if values, lines, ok := readSimpleYAML(src, reads); ok {
		return values, lines, nil
	}
	return readYAMLTree(src)
}

// readYAMLTree parses front matter with the YAML library.
func readYAMLTree(src string) (map[string]any, map[string]int, error) {
	const firstLine = yamlFirstLine
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

// readSimpleYAML reads front matter in the plain shape most pages use,
// without the YAML library: top-level "key: value" lines, comments and empty
// lines, where a value is a plain scalar (on its line or folded over indented
// ones), a one-line quoted string without escapes, a block scalar (>, >-, |,
// |-) of evenly indented lines, or a one-line list of plain items. A value
// ingest reads must be one the library reads as that same text (no number,
// no null, no True). ok is false for anything else, and the caller parses
// the YAML in full; FuzzReadYAML holds the two to the same result.
func readSimpleYAML(src string, reads func(string) bool) (values map[string]any, lines map[string]int, ok bool) {
	if src != "" && !strings.HasSuffix(src, "\n") || !utf8.ValidString(src) {
		return nil, nil, false // a block scalar's last line break would be missing; the library reads bad bytes its way
	}
	values, lines = map[string]any{}, map[string]int{}
	ls := strings.Split(src, "\n")
	for i := 0; i < len(ls); {
		if ls[i] == "" || ls[i][0] == '#' && printable(ls[i]) { // a comment ends at a line break the library sees
			i++
			continue
		}
		key, rest, ok := simpleKey(ls[i])
		if _, dup := lines[key]; !ok || dup {
			return nil, nil, false
		}
		j := i + 1
		for j < len(ls) && strings.HasPrefix(ls[j], " ") {
			j++
		}
		v, ok := simpleValue(rest, ls[i+1:j], reads(key))
		if !ok {
			return nil, nil, false
		}
		if lines[key] = i + yamlFirstLine; reads(key) {
			values[key] = v
		}
		i = j
	}
	return values, lines, true
}

// simpleKey splits "key: value" where key is a plain word: an ASCII letter
// or _, then letters, digits and _ - . : (not last), and not a bool or null.
func simpleKey(l string) (key, rest string, ok bool) {
	i := strings.Index(l, ": ")
	if i < 0 && strings.HasSuffix(l, ":") {
		i = len(l) - 1
	}
	if i <= 0 || i > 64 || l[i-1] == ':' || !isASCIILetter(l[0]) && l[0] != '_' {
		return "", "", false
	}
	key = l[:i]
	for j := range len(key) {
		if c := key[j]; !isASCIILetter(c) && (c < '0' || c > '9') && !strings.ContainsRune("_-.:", rune(c)) {
			return "", "", false
		}
	}
	if strings.EqualFold(key, "true") || strings.EqualFold(key, "false") || strings.EqualFold(key, "null") {
		return "", "", false
	}
	return key, l[i+1:], true
}

// simpleValue is the value after a key (rest) and its indented lines (more),
// as a string or a list of strings. typed asks for a value whose text the
// library would read as a string with that text.
func simpleValue(rest string, more []string, typed bool) (any, bool) {
	rest = strings.Trim(rest, " ")
	switch {
	case rest == ">" || rest == ">-" || rest == "|" || rest == "|-":
		return blockScalar(rest, more)
	case rest != "" && (rest[0] == '\'' || rest[0] == '"') && len(more) == 0:
		return quotedScalar(rest)
	case rest != "" && rest[0] == '[' && rest[len(rest)-1] == ']' && len(more) == 0:
		var list []any
		for _, item := range strings.Split(rest[1:len(rest)-1], ",") {
			item = strings.Trim(item, " ")
			if strings.ContainsAny(item, ":#") || !plainText(item, typed) || typed && misread(item) {
				return nil, false
			}
			list = append(list, item)
		}
		return list, true
	}
	parts := make([]string, 0, 1+len(more))
	if rest != "" {
		parts = append(parts, rest)
	}
	for _, l := range more {
		parts = append(parts, strings.Trim(l, " "))
	}
	for i, p := range parts {
		if !plainText(p, typed && i == 0) {
			return nil, false
		}
	}
	v := strings.Join(parts, " ") // a plain scalar's lines fold into one
	if len(parts) == 0 || typed && misread(v) {
		return nil, false
	}
	return v, true
}

// misread reports a plain scalar the library reads as something printed
// otherwise: null, or a bool not written true or false.
func misread(v string) bool {
	return v == "True" || v == "TRUE" || v == "False" || v == "FALSE" || strings.EqualFold(v, "null")
}

// plainText reports whether s can be (part of) a plain scalar the library
// reads as its text: it starts with a letter, a digit (not when typed), ( or
// _, holds no tab, control, flow bracket or double quote, no ": " or " #",
// and does not end in ':'.
func plainText(s string, typed bool) bool {
	if s == "" || s[len(s)-1] == ':' {
		return false
	}
	for i, r := range s {
		switch {
		case i == 0 && !unicode.IsLetter(r) && (typed || !unicode.IsDigit(r)) && r != '(' && r != '_',
			r < ' ' || r == 0x7f || r >= 0x80 && (!unicode.IsPrint(r) || unicode.IsSpace(r)),
			strings.ContainsRune("[]{}\"", r),
			r == ':' && s[i+1] == ' ', r == '#' && s[i-1] == ' ':
			return false
		}
	}
	return true
}

// blockScalar is a block scalar (header >, >-, | or |-) of evenly indented,
// non-empty lines without trailing blanks: folded into one line, or kept as
// lines, with a final newline unless the header strips it.
func blockScalar(header string, lines []string) (any, bool) {
	if len(lines) == 0 {
		return nil, false
	}
	n := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
	text := make([]string, len(lines))
	for i, l := range lines {
		if len(l) <= n || l[n] == ' ' || strings.TrimLeft(l[:n], " ") != "" || strings.HasSuffix(l, " ") || !printable(l) {
			return nil, false
		}
		text[i] = l[n:]
	}
	sep := " "
	if header[0] == '|' {
		sep = "\n"
	}
	v := strings.Join(text, sep)
	if !strings.HasSuffix(header, "-") {
		v += "\n"
	}
	return v, true
}

// quotedScalar is a one-line quoted string without escapes (” is a single
// quote inside single quotes) and nothing after it.
func quotedScalar(s string) (any, bool) {
	if len(s) < 2 || s[len(s)-1] != s[0] || !printable(s[1:len(s)-1]) {
		return nil, false
	}
	q, inner := s[0], s[1:len(s)-1]
	if q == '"' {
		return inner, !strings.ContainsAny(inner, "\\\"")
	}
	if strings.Count(inner, "'")%2 != 0 || strings.ReplaceAll(inner, "''", "") != strings.ReplaceAll(inner, "'", "") {
		return nil, false // a lone quote ends the string early
	}
	return strings.ReplaceAll(inner, "''", "'"), true
}

// printable reports whether s holds no tab, control or Unicode blank.
func printable(s string) bool {
	for _, r := range s {
		if r < ' ' || r == 0x7f || r >= 0x80 && (!unicode.IsPrint(r) || unicode.IsSpace(r)) {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

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
