package html

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/schema"
)

// meta is what a page says of itself, the front matter of an HTML page:
// its <title>, its first h1 when that opens the page, the lang of <html>,
// its <meta> elements (name or property, and content), its canonical
// <link> and <base>.
type meta struct {
	title     titleText
	h1        value
	lang      value
	named     []named // in page order
	canonical value
	base      value
}

type value struct {
	text string
	line int
}

// set keeps the first non-empty value, its white space collapsed.
func (v *value) set(s string, line int) {
	if s = strings.Join(strings.Fields(s), " "); v.text == "" && s != "" {
		v.text, v.line = s, line
	}
}

type named struct {
	key, value string
	line       int
}

// titleText is the text of the page's <title>, which may come in pieces.
type titleText struct {
	b     strings.Builder
	line  int
	state int // 0: not seen; 1: being read; 2: read
}

func (t *titleText) add(raw string, line int) {
	if t.state == 0 {
		t.state, t.line = 1, line
	}
	t.b.WriteString(raw)
}

func (t *titleText) seen() bool { return t.state != 0 }

func (t *titleText) close() { t.state = 2 }

func (t *titleText) value() value {
	var v value
	v.set(nethtml.UnescapeString(t.b.String()), t.line)
	return v
}

// read reads a <meta>, <link> or <base> element.
func (m *meta) read(t token, line int) {
	switch t.tag {
	case atom.Meta:
		key := strings.ToLower(strings.TrimSpace(attrOf(t, "name")))
		if key == "" {
			key = strings.ToLower(strings.TrimSpace(attrOf(t, "property")))
		}
		if content, ok := t.attr("content"); ok && key != "" {
			m.named = append(m.named, named{key, strings.Join(strings.Fields(content), " "), line})
		}
	case atom.Link:
		for _, rel := range strings.Fields(strings.ToLower(attrOf(t, "rel"))) {
			if rel == "canonical" {
				m.canonical.set(attrOf(t, "href"), line)
			}
		}
	case atom.Base:
		m.base.set(attrOf(t, "href"), line)
	}
}

func (m *meta) get(key string) value {
	for _, n := range m.named {
		if n.key == key && n.value != "" {
			return value{n.value, n.line}
		}
	}
	return value{}
}

// langKeys are the <meta> names of a language, read as <html lang> is,
// in the order they are asked.
var langKeys = []string{"lang", "language", "locale", "og:locale"}

// apply hands what the page says of itself to r, the strongest first
// (corpus.Reading.Set keeps the first value, and the front matter's over
// all): a <meta> named for a front-matter key (title, description, source,
// kind, beach…), then Open Graph's title, the h1 that opens the page and
// <title>; og:description; the canonical link, then og:url; the language.
// Every <meta> the config names in metadata_keys goes to the chunks'
// metadata, its values in page order.
func (m *meta) apply(r *corpus.Reading) {
	for _, n := range m.named {
		if !slices.Contains(langKeys, n.key) {
			r.Set(n.key, n.value, n.line)
		}
	}
	for _, v := range []value{m.get("og:title"), m.h1, m.title.value()} {
		r.Set("title", v.text, v.line)
	}
	d := m.get("og:description")
	r.Set("description", d.text, d.line)
	if u, ok := m.absolute(m.canonical, r); ok {
		r.Set("canonical", u, m.canonical.line)
	}
	if u, ok := m.absolute(m.get("og:url"), r); ok {
		r.Set("url", u, m.get("og:url").line)
	}
	m.applyLang(r)
	values := map[string][]string{}
	var keys []string
	for _, n := range m.named {
		if _, ok := values[n.key]; !ok {
			keys = append(keys, n.key)
		}
		values[n.key] = append(values[n.key], n.value)
	}
	for _, k := range keys {
		r.SetMetadata(k, values[k])
	}
}

// absolute is v as an absolute http(s) URL: as written, or resolved
// against <base> or og:url. A relative one nothing resolves is reported
// and not used.
func (m *meta) absolute(v value, r *corpus.Reading) (string, bool) {
	if v.text == "" {
		return "", false
	}
	u, err := url.Parse(v.text)
	if err != nil {
		r.Add(v.line, schema.SeverityWarning, "bad-url", "the page's URL "+fmt.Sprintf("%q", v.text)+" is not a URL: "+err.Error())
		return "", false
	}
	if u.IsAbs() {
		return u.String(), u.Scheme == "http" || u.Scheme == "https"
	}
	for _, against := range []string{m.base.text, m.get("og:url").text} {
		if b, err := url.Parse(against); err == nil && b.IsAbs() && (b.Scheme == "http" || b.Scheme == "https") {
			return b.ResolveReference(u).String(), true
		}
	}
	r.Add(v.line, schema.SeverityWarning, "relative-url", "the page's URL "+fmt.Sprintf("%q", v.text)+" is relative and nothing on the page says to what; not used")
	return "", false
}

// applyLang reads the page's language (<html lang>, or a <meta> naming it)
// when it is one ingest reads; another is said, and the folder or the
// words decide.
func (m *meta) applyLang(r *corpus.Reading) {
	v := m.lang
	for _, k := range langKeys {
		if v.text == "" {
			v = m.get(k)
		}
	}
	if v.text == "" {
		return
	}
	t := strings.ToLower(strings.ReplaceAll(v.text, "_", "-"))
	switch {
	case t == "en" || strings.HasPrefix(t, "en-"):
		r.Set("lang", string(schema.LangEN), v.line)
	case t == "pt" || strings.HasPrefix(t, "pt-"):
		r.Set("lang", string(schema.LangPT), v.line)
	default:
		r.Add(v.line, schema.SeverityInfo, "other-lang", "the page says it is in "+fmt.Sprintf("%q", v.text)+", not a language ingest reads (en, pt): its folder or its words decide")
	}
}
