package html

import (
	"strings"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/stamp"
)

// Format reads corpus documents as HTML pages.
type Format struct {
	opt corpus.Options
}

var (
	_ corpus.Format   = (*Format)(nil)
	_ corpus.Includer = (*Format)(nil)
)

// New is the HTML format for a corpus read with opt.
func New(opt corpus.Options) corpus.Format {
	opt.Limits = opt.Limits.Resolved()
	return &Format{opt: opt}
}

// Includes is none: a page includes nothing (corpus.Includer).
func (f *Format) Includes(string, []byte) ([]corpus.Included, []stamp.Dep) { return nil, nil }

// Mentions is false: a page names nothing to include (corpus.Includer).
func (f *Format) Mentions([]byte) bool { return false }

// Parse reads the page rel's bytes (checked, normalised and their front
// matter read by corpus.Read), walks its tokens into a view and blocks, and
// resolves what the page says of itself over the folder defaults.
func (f *Format) Parse(rel string, raw []byte) corpus.Parsed {
	r, ok := corpus.Read(rel, raw, f.opt)
	if !ok {
		return corpus.Parsed{Doc: r.Doc, Diags: r.Diagnostics(), Rejected: true}
	}
	w := newWalker(r.Doc, f.opt.Limits, hasMain(r.Doc.Text, r.Doc.BodyStart))
	w.walk()
	if w.err != nil {
		r.Add(w.err.Line, w.err.Severity, w.err.Code, w.err.Message)
		return corpus.Parsed{Doc: r.Doc, Diags: r.Diagnostics(), Rejected: true}
	}
	w.meta.apply(r)
	r.Doc.ContentStart = max(w.contentStart, r.Doc.BodyStart)
	doc, diags := r.Resolve(func() string { return w.first }, w.prose())
	if corpus.Rejected(diags) {
		return corpus.Parsed{Doc: doc, Diags: diags, Rejected: true}
	}
	body := &chunking.Body{Doc: doc, View: string(w.v.b), Removed: w.v.removed, Origin: w.v.origin, Notes: w.notes,
		Blocks: w.out, Tables: w.tables, Diags: w.diags, Markup: w.markup}
	return corpus.Parsed{Doc: doc, Diags: diags, Body: body}
}

// prose is the page's words outside code, for telling its language.
func (w *walker) prose() string {
	var b strings.Builder
	for _, bl := range w.out {
		if bl.Element != "code_block" {
			b.WriteString(bl.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// hasMain reports whether the page has a main element (or role=main): then
// what is outside it is the site around the page. Most pages have none,
// and the text says so without a second read.
func hasMain(text string, from int) bool {
	if !strings.Contains(strings.ToLower(text[from:]), "main") {
		return false
	}
	z := nethtml.NewTokenizer(strings.NewReader(text[from:]))
	for {
		switch z.Next() {
		case nethtml.ErrorToken:
			return false
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			name, more := z.TagName()
			if atom.Lookup(name) == atom.Main {
				return true
			}
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				if string(k) == "role" && strings.EqualFold(strings.TrimSpace(string(v)), "main") {
					return true
				}
			}
		}
	}
}
