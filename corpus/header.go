package corpus

import (
	"strings"

	"github.com/ocean-safety/ingest/schema"
)

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
	if h.title.value == "" { // a front-matter title wins
		h.title = field{title, line}
	}
	off, line = n, line+1
	for off < len(text) {
		l, n := next()
		key, val, ok := headerLine(l)
		if !ok {
			break
		}
		if !h.set(key, val, line) {
			ds.add(line, schema.SeverityWarning, "unknown-header", "unknown header line "+quote(key)+" (known: Source, Kind, Lang, Beach, Description, Draft)")
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
	t = strings.TrimSpace(attrList.ReplaceAllString(t, "")) // "# Title { #anchor }": the anchor is not the title's
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
