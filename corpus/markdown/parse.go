package markdown

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/include"
	"github.com/ocean-safety/ingest/corpus/stamp"
	"github.com/ocean-safety/ingest/schema"
)

// parsed is a loaded document with its Markdown syntax tree, until it is
// walked into the corpus.Parsed the format hands over.
type parsed struct {
	Doc   schema.Document
	Diags []schema.Diagnostic
	// Rejected is set when a diagnostic is an error: the document is reported
	// and not chunked.
	Rejected bool

	// Markup counts the markup removed from the body, by kind (see
	// cleanMarkup), for the run report.
	Markup map[string]int

	root        ast.Node     // the body's tree; positions are relative to Doc.BodyStart
	src         []byte       // view[Doc.BodyStart:]: what the parser read
	view        string       // Doc.Text with its markup blanked: same length, same lines
	removed     []bool       // per byte of Doc.Text: blanked markup
	origin      []int        // per byte of the view: its offset in Doc.Text; nil when that is its own (see source)
	admonitions []admonition // in Doc.Text offsets
	tabs        []admonition // content tabs, in Doc.Text offsets, by start
	included    []chunking.Region
}

// Format reads corpus documents as Markdown (CommonMark with GFM tables).
type Format struct {
	opt corpus.Options
	md  goldmark.Markdown
	inc *include.Resolver // nil: includes are not expanded (no corpus root, or a bad includes.base, which the settings report)
}

var (
	_ corpus.Format   = (*Format)(nil)
	_ corpus.Includer = (*Format)(nil)
)

// New is the Markdown format for a corpus read with opt.
func New(opt corpus.Options) corpus.Format {
	f := &Format{opt: opt, md: goldmark.New(goldmark.WithExtensions(extension.Table))}
	if opt.Root != "" {
		f.inc, _ = include.New(opt.Root, opt.IncludeBases)
	}
	return f
}

// Parse reads the document rel's bytes: its front matter or title and
// header lines (corpus.Parse), then its Markdown into a chunking.Body.
func (f *Format) Parse(rel string, raw []byte) corpus.Parsed {
	doc, diags := corpus.Parse(rel, raw, f.opt)
	var inc include.Result
	if f.inc != nil && !corpus.Rejected(diags) {
		doc, inc = f.expand(doc)
		diags = append(diags, inc.Diags...)
	}
	p := f.parseDoc(doc, diags)
	for _, s := range inc.Spans {
		p.included = append(p.included, chunking.Region{Kind: s.Path, Start: s.Start + doc.ContentStart, End: s.End + doc.ContentStart})
	}
	out := corpus.Parsed{Doc: p.Doc, Diags: p.Diags, Rejected: p.Rejected}
	for _, f := range inc.Files {
		out.Included = append(out.Included, corpus.Included{Path: f.Path, SHA256: f.SHA256})
	}
	out.Deps = inc.Deps
	if !p.Rejected {
		out.Body = p.body()
	}
	return out
}

// Mentions reports whether raw names anything to include, when includes
// are expanded (corpus.Includer).
func (f *Format) Mentions(raw []byte) bool { return f.inc != nil && include.Mentions(string(raw)) }

// Includes lists the files the document rel includes, and the paths they
// were looked for at, as Parse does (its front matter read, its includes
// expanded), without parsing its Markdown.
func (f *Format) Includes(rel string, raw []byte) ([]corpus.Included, []stamp.Dep) {
	if f.inc == nil || !include.Mentions(string(raw)) {
		return nil, nil // nothing to read: the front matter is not parsed either
	}
	doc, diags := corpus.Parse(rel, raw, f.opt)
	if corpus.Rejected(diags) {
		return nil, nil
	}
	var out []corpus.Included
	res := f.inc.Expand(doc.Path, doc.Text[doc.ContentStart:])
	for _, file := range res.Files {
		out = append(out, corpus.Included{Path: file.Path, SHA256: file.SHA256})
	}
	return out, res.Deps
}

// expand is doc with the includes of its content expanded: its text (and
// so its version, the hash of its text) is what the site renders. Lines after
// an include are counted in the expanded text.
func (f *Format) expand(doc schema.Document) (schema.Document, include.Result) {
	cs := doc.ContentStart
	res := f.inc.Expand(doc.Path, doc.Text[cs:])
	if len(res.Files) == 0 && len(res.Diags) == 0 {
		return doc, res
	}
	// Expand counts lines from the content's first; a diagnostic names the
	// file's line, past the front matter and title.
	if pre := strings.Count(doc.Text[:cs], "\n"); pre > 0 {
		for i := range res.Diags {
			if res.Diags[i].Line > 0 {
				res.Diags[i].Line += pre
			}
		}
	}
	doc.Text = doc.Text[:cs] + res.Text
	sum := sha256.Sum256([]byte(doc.Text))
	doc.Version = hex.EncodeToString(sum[:])
	return doc, res
}

func (f *Format) parseDoc(doc schema.Document, diags []schema.Diagnostic) parsed {
	out := parsed{Doc: doc, Diags: diags, Rejected: corpus.Rejected(diags)}
	if out.Rejected {
		return out
	}
	n, body := len(doc.Text), doc.BodyStart
	buf := make([]byte, n)
	copy(buf, doc.Text)
	out.removed = make([]bool, n)
	c := cleanMarkup(doc.Text[body:], buf[body:], out.removed[body:], body, strings.HasSuffix(strings.ToLower(doc.Path), ".mdx"))
	out.origin = c.origin
	for _, a := range c.admonitions {
		a.start, a.end = a.start+body, a.end+body
		out.admonitions = append(out.admonitions, a)
	}
	for _, a := range c.tabs {
		a.start, a.end = a.start+body, a.end+body
		out.tabs = append(out.tabs, a)
	}
	out.Markup = c.counts
	out.view = string(buf)
	out.src = buf[body:] // not written to again: the tree points into it
	if line, code, msg := corpus.CheckInline(out.view, body, f.opt.Limits); code != "" {
		// The text the parser would read has a shape it takes quadratic
		// time or memory on: refused before it runs.
		out.Diags = append(out.Diags, schema.Diagnostic{Path: doc.Path, Line: line, Severity: schema.SeverityError, Code: code, Message: msg})
		out.Rejected = true
		return out
	}
	out.root = f.md.Parser().Parse(text.NewReader(out.src))
	return out
}

// body is the parsed document as the chunker reads it: its view, its
// blocks (the tree walked once, in source order), the admonitions whose
// kinds go to the metadata, and the markup counts; nil for a rejected
// document. It is the one place the Markdown format hands over.
func (p *parsed) body() *chunking.Body {
	if p.Rejected || p.root == nil {
		return nil
	}
	w := blockWalker{p: p, off: p.Doc.BodyStart}
	b := &chunking.Body{Doc: p.Doc, View: p.view, Removed: p.removed, Origin: p.origin, Blocks: w.walk(), Markup: p.Markup}
	b.Tables, b.Diags, b.Included = w.tables, w.diags, p.included
	for _, a := range p.admonitions {
		b.Notes = append(b.Notes, chunking.Region{Kind: a.kind, Start: a.start, End: a.end})
	}
	return b
}
