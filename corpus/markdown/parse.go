package markdown

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/schema"
)

// Parsed is a loaded document with its Markdown syntax tree: the record the
// parse stage hands the chunk stage.
type Parsed struct {
	Doc   schema.Document
	Diags []schema.Diagnostic
	// Rejected is set when a diagnostic is an error: the document is reported
	// and not chunked.
	Rejected bool

	// RawSHA256 is the hash of the file's bytes as read, before
	// normalisation: what the input fingerprint is made of.
	RawSHA256 string

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
}

// Parser loads corpus documents and parses their Markdown (CommonMark with
// GFM tables).
type Parser struct {
	root string
	opt  corpus.Options
	md   goldmark.Markdown
}

// NewParser returns a parser for the corpus at root.
func NewParser(root string, opt corpus.Options) *Parser {
	if opt.SourceLabel == "" {
		opt.SourceLabel = corpus.DefaultSourceLabel(root)
	}
	return &Parser{root: root, opt: opt, md: goldmark.New(goldmark.WithExtensions(extension.Table))}
}

// SourceLabel is the label written on every document: the configured
// one, or a slug of the corpus folder's name.
func (p *Parser) SourceLabel() string { return p.opt.SourceLabel }

// Parse loads and parses the document at rel (relative to the corpus root).
// Problems with the document are in Parsed.Diags; the error is for a file
// that cannot be read at all.
func (p *Parser) Parse(rel string) (Parsed, error) {
	path := filepath.Join(p.root, filepath.FromSlash(rel))
	if info, err := os.Stat(path); err == nil && info.Size() > int64(p.limits().MaxBytes) {
		// Not read into memory: hashed as a stream, and refused.
		sum, err := corpus.DigestFile(path)
		if err != nil {
			return Parsed{}, fmt.Errorf("load %s: %w", rel, err)
		}
		return Parsed{Doc: schema.Document{Path: rel}, Diags: corpus.TooLarge(rel, info.Size(), p.limits()), Rejected: true, RawSHA256: sum}, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return Parsed{}, fmt.Errorf("load %s: %w", rel, err)
	}
	parsed := p.ParseBytes(rel, raw)
	parsed.RawSHA256 = corpus.Digest(raw)
	return parsed, nil
}

func (p *Parser) limits() corpus.Limits {
	l := p.opt.Limits
	if l.MaxBytes <= 0 {
		l.MaxBytes = corpus.DefaultMaxBytes
	}
	return l
}

// ParseBytes is Parse for a document already in memory (the chunk command,
// tests, fuzzing).
func (p *Parser) ParseBytes(rel string, raw []byte) Parsed {
	doc, diags := corpus.Parse(rel, raw, p.opt)
	doc.SourceLabel = p.opt.SourceLabel
	return p.parseDoc(doc, diags)
}

func (p *Parser) parseDoc(doc schema.Document, diags []schema.Diagnostic) Parsed {
	out := Parsed{Doc: doc, Diags: diags, Rejected: corpus.Rejected(diags)}
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
	if line, code, msg := corpus.CheckInline(out.view, body, p.limits()); code != "" {
		// The text the parser would read has a shape it takes quadratic
		// time or memory on: refused before it runs.
		out.Diags = append(out.Diags, schema.Diagnostic{Path: doc.Path, Line: line, Severity: schema.SeverityError, Code: code, Message: msg})
		out.Rejected = true
		return out
	}
	out.root = p.md.Parser().Parse(text.NewReader(out.src))
	return out
}

// Body is the parsed document as the chunker reads it: its view, its
// blocks (the tree walked once, in source order), the admonitions whose
// kinds go to the metadata, and the markup counts; nil for a rejected
// document. It is the one place the Markdown format hands over.
func (p *Parsed) Body() *chunking.Body {
	if p.Rejected || p.root == nil {
		return nil
	}
	w := blockWalker{p: p, off: p.Doc.BodyStart}
	b := &chunking.Body{Doc: p.Doc, View: p.view, Removed: p.removed, Origin: p.origin, Blocks: w.walk(), Markup: p.Markup}
	b.Tables, b.Diags = w.tables, w.diags
	for _, a := range p.admonitions {
		b.Notes = append(b.Notes, chunking.Region{Kind: a.kind, Start: a.start, End: a.end})
	}
	return b
}
