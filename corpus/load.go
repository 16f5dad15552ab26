package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/ocean-safety/ingest/schema"
)

// Options are the corpus-wide settings a document is loaded with.
type Options struct {
	DefaultLang schema.Lang // when neither header nor folder says (default en)
	// SourceOptional turns a missing Source into a warning instead of an error.
	SourceOptional bool
	// SourceLabel is the scope key written on every chunk (the caller
	// defaults it to DefaultSourceLabel of the corpus folder).
	SourceLabel string
	// Limits bound a document's size and shape (zero fields: the defaults).
	Limits Limits
	// SourceURLTemplate makes a document's source URL from its path when it
	// names none: "https://opentelemetry.io/{path}/", where {path} is the
	// path without extension and without a final _index or index, {page}
	// the same without a leading language folder, and {lang} the
	// document's language (see SourceURL). SourceURLTemplates are the
	// templates of the languages whose pages a site serves elsewhere (its
	// default language at the root, the others under /pt/…): a document
	// takes its language's, else SourceURLTemplate.
	SourceURLTemplate  string
	SourceURLTemplates map[schema.Lang]string
	// MetadataKeys are front-matter keys copied into the chunks' metadata.
	MetadataKeys []string
	// RootName is the corpus folder's own name: a language folder ("pt")
	// counts like any folder of a path.
	RootName string
	// Root is the corpus folder, where a format that expands includes reads
	// them from ("": includes are not expanded); IncludeBases are the other
	// folders it may read them from (includes.base), absolute or relative
	// to Root.
	Root         string
	IncludeBases []string
}

// Parse normalises and validates a Markdown document read from rel
// (slash-separated, relative to the corpus root): rel decides the folder
// defaults and names the file in diagnostics. Over what every format shares
// (Read), it bounds the line shapes the Markdown parser is slow on and reads
// the "# Title" line and the header lines below it. It returns every
// diagnostic found; the document is usable only when none of them is an
// error (see Rejected).
func Parse(rel string, raw []byte, opt Options) (schema.Document, []schema.Diagnostic) {
	r, ok := read(rel, raw, opt, true)
	if !ok {
		return r.Doc, r.ds.list
	}
	doc := &r.Doc
	doc.ContentStart = readTitle(doc.Text, doc.BodyStart, &r.h, &r.ds)
	return r.Resolve(func() string { return firstHeading(doc.Text[doc.BodyStart:]) }, doc.Text[doc.BodyStart:])
}

// Reading is a document part read: its bytes checked, its text normalised
// (Doc.Text, Doc.Version) and its front matter read (Doc.BodyStart). Its
// format adds what its body says of the document (Set, SetMetadata) and
// its own findings (Add), then Resolve applies the folder defaults and
// checks the whole, the same way for every format.
type Reading struct {
	Doc schema.Document
	h   header
	ds  diagnostics
	opt Options
}

// Read is the start every format shares: it checks a document's bytes
// (not empty, under limits.max_bytes, UTF-8 text), normalises its text and
// reads its front matter. ok is false when the document cannot be read
// further; its diagnostics (Resolve) say why.
func Read(rel string, raw []byte, opt Options) (r *Reading, ok bool) {
	return read(rel, raw, opt, false)
}

// read is Read, with Markdown's line-shape check (checkShape) before the
// front matter when shape is set.
func read(rel string, raw []byte, opt Options, shape bool) (*Reading, bool) {
	if opt.DefaultLang == "" {
		opt.DefaultLang = schema.LangEN
	}
	r := &Reading{Doc: schema.Document{Path: rel, SourceLabel: opt.SourceLabel}, opt: opt}
	r.ds.path = rel
	if len(strings.TrimSpace(string(raw))) == 0 {
		r.ds.add(0, schema.SeverityError, "empty", "empty file")
		return r, false
	}
	limits := opt.Limits.orDefault()
	if len(raw) > limits.MaxBytes {
		r.ds.list = TooLarge(rel, int64(len(raw)), limits)
		return r, false
	}
	if line, code, msg := checkBytes(raw); code != "" {
		r.ds.add(line, schema.SeverityError, code, msg)
		return r, false
	}
	text := Normalise(raw)
	if shape {
		if line, code, msg := checkShape(text, limits); code != "" {
			r.ds.add(line, schema.SeverityError, code, msg)
			return r, false
		}
	}
	sum := sha256.Sum256([]byte(text))
	r.Doc.Text, r.Doc.Version = text, hex.EncodeToString(sum[:])
	r.Doc.BodyStart = readFrontMatter(text, &r.h, opt, &r.ds)
	return r, true
}

// Set records a value the document's body states of it, at line: key is a
// front-matter key ingest reads (title, description, lang, source, url,
// canonical, kind, draft…). A value the front matter already gave wins.
// It reports whether ingest reads key.
func (r *Reading) Set(key, value string, line int) bool {
	f := r.h.field(key)
	if f == nil {
		return false
	}
	if f.value == "" {
		*f = field{strings.TrimSpace(value), line}
	}
	return true
}

// SetMetadata records the values of a metadata key the body states, if
// the config names it in metadata_keys (compared without case) and the
// front matter did not give it.
func (r *Reading) SetMetadata(key string, values []string) {
	for _, want := range r.opt.MetadataKeys {
		if strings.EqualFold(key, want) {
			if _, ok := r.h.metadata[want]; ok {
				return
			}
			if r.h.metadata == nil {
				r.h.metadata = map[string][]string{}
			}
			r.h.metadata[want] = values
			return
		}
	}
}

// Add records a finding of the document's format at line.
func (r *Reading) Add(line int, sev schema.Severity, code, msg string) {
	r.ds.add(line, sev, code, msg)
}

// Diagnostics are the findings so far: why a document Read refused.
func (r *Reading) Diagnostics() []schema.Diagnostic { return r.ds.list }

// Resolve applies the values read over the folder defaults, checks the
// combination and returns the document with every diagnostic found.
// heading is the document's first heading, asked for only when nothing
// named a title; words are its prose (the body without markup or code),
// read for its language when nothing named one.
func (r *Reading) Resolve(heading func() string, words string) (schema.Document, []schema.Diagnostic) {
	resolve(&r.Doc, r.h, heading, words, r.opt, &r.ds)
	return r.Doc, r.ds.list
}

// resolve applies the header values over the folder defaults and checks the
// combination.
func resolve(doc *schema.Document, h header, heading func() string, words string, opt Options, ds *diagnostics) {
	resolveTitle(doc, h, heading, ds)
	doc.Description = h.description.value
	doc.Metadata = h.metadata
	doc.Draft = isTrue(h.draft.value)
	resolveLang(doc, h, words, opt, ds)
	resolveSource(doc, h, opt, ds)
	resolveKind(doc, h, ds)
}

// resolveKind takes the kind the header names, else the kind whose folder
// the document is under, else the default, and checks that the document
// has what its kind needs (schema.KindRules).
func resolveKind(doc *schema.Document, h header, ds *diagnostics) {
	doc.Kind = schema.DefaultKind
	for _, k := range schema.Kinds {
		if f := k.Rules().Folder; f != "" && hasSegment(doc.Path, f) {
			doc.Kind = k
			break
		}
	}
	if h.kind.value != "" {
		k, err := schema.ParseKind(strings.ToLower(h.kind.value))
		if err != nil {
			ds.add(h.kind.line, schema.SeverityError, "unknown-kind", err.Error())
		} else {
			doc.Kind = k
		}
	}
	doc.BeachID = h.beach.value
	if doc.Kind.Rules().Beach && doc.BeachID == "" {
		ds.add(h.kind.line, schema.SeverityError, string(doc.Kind)+"-without-beach", "Kind: "+string(doc.Kind)+" needs a \"Beach: <id>\" header line")
	}
}

// resolveTitle takes the title from the front matter or the body (the
// "# Title" line), else linkTitle, else the first heading of the body, else
// the file name (with a warning).
func resolveTitle(doc *schema.Document, h header, heading func() string, ds *diagnostics) {
	switch {
	case h.title.value != "":
		doc.Title = h.title.value
	case h.linkTitle.value != "":
		doc.Title = h.linkTitle.value
	default:
		if t := heading(); t != "" {
			doc.Title = t
			return
		}
		p := doc.Path
		if _, bare, ok := suffixLang(p); ok {
			p = bare // "lb-web-service.en.md" is the page "lb-web-service"
		}
		base := path.Base(p)
		doc.Title = strings.TrimSuffix(base, path.Ext(base))
		ds.add(1, schema.SeverityWarning, "missing-title", "no title: the file name is used; add a \"# Title\" line or a front-matter title")
	}
}

// resolveSource takes the document's own source URL (Source: line or
// source/url/canonical key), else makes one from the configured template.
func resolveSource(doc *schema.Document, h header, opt Options, ds *diagnostics) {
	doc.SourceURL = h.source.value
	if doc.SourceURL == "" {
		doc.SourceURL = h.url.value
	}
	if doc.SourceURL == "" {
		if t := opt.template(doc.Lang); t != "" {
			doc.SourceURL = SourceURL(t, doc.Path, doc.Lang)
		}
	}
	if doc.SourceURL != "" {
		return
	}
	sev := schema.SeverityError
	if opt.SourceOptional {
		sev = schema.SeverityWarning
	}
	ds.add(max(h.title.line, 1), sev, "missing-source", "missing source URL: add a \"Source: <url>\" line (or a source: front-matter key), "+
		"or set source_url_template in the config (\"https://example.org/{path}/\"); require_source: false accepts documents without one")
}

func isTrue(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}

// template is the source URL template of a document in lang.
func (o Options) template(lang schema.Lang) string {
	if t, ok := o.SourceURLTemplates[lang]; ok {
		return t
	}
	return o.SourceURLTemplate
}

// SourceURL fills a source URL template for the document at rel: {path} is
// rel without its extension, a language suffix (suffixLang: "a.pt.md" is
// the page "a" in pt) and a final "_index" or "index"
// ("docs/collector/_index.md" → "docs/collector"), {page} the same without a
// first folder named for a language ("en/docs/collector/_index.md" →
// "docs/collector": the page's path within its language, where a site
// keeps each language in a folder of its own), {lang} its language. The
// root page's path is empty, and the slash before it goes too.
func SourceURL(template, rel string, lang schema.Lang) string {
	_, rel, _ = suffixLang(rel)
	p := strings.TrimSuffix(rel, path.Ext(rel))
	if b := path.Base(p); b == "_index" || b == "index" {
		p = path.Dir(p)
	}
	if p == "." {
		p = ""
	}
	page := p
	if folder, _, ok := strings.Cut(rel, "/"); ok && RootLang(folder) != "" { // a language ingest reads: "go/" or "js/" is a section
		page = strings.TrimPrefix(strings.TrimPrefix(p, folder), "/")
	}
	for _, v := range []struct{ name, value string }{{"{path}", p}, {"{page}", page}} {
		if v.value == "" {
			template = strings.ReplaceAll(template, "/"+v.name, "") // the root page: no double slash
		}
		template = strings.ReplaceAll(template, v.name, v.value)
	}
	return strings.ReplaceAll(template, "{lang}", string(lang))
}

// firstHeading is the text of the first ATX heading of a Markdown body,
// outside fenced code.
func firstHeading(body string) string {
	heading := ""
	eachProseLine(body, func(_, t string) bool {
		if strings.HasPrefix(t, "#") {
			if h := strings.TrimSpace(strings.TrimRight(strings.TrimLeft(t, "#"), "# ")); h != "" && len(t)-len(strings.TrimLeft(t, "#")) <= 6 {
				heading = strings.TrimSpace(attrList.ReplaceAllString(h, ""))
				return false
			}
		}
		return true
	})
	return heading
}

// eachProseLine calls fn with each line of a Markdown body outside fenced
// code, and the line without its leading spaces, until fn returns false.
func eachProseLine(body string, fn func(line, trimmed string) bool) {
	fence := ""
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimLeft(l, " ")
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if !fn(l, t) {
			return
		}
	}
}

// AttrList is a Markdown attribute list (Python-Markdown's attr_list,
// Pandoc, Hugo) in any of the spacings sites write: {#id}, {#id .class},
// { #defaults }, {: #id .class }, {: style="…" }, { .annotate }. The one
// pattern the title and the Markdown format strip.
var AttrList = regexp.MustCompile(`\{(?::[^{}\n]*|[ \t]*[#.][\w-][^{}\n]*)\}`)

// attrList is an attribute list at the end of a line.
var attrList = regexp.MustCompile(`\s*` + AttrList.String() + `\s*$`)

// hasSegment reports whether a folder of rel is named seg.
func hasSegment(rel, seg string) bool {
	dir := path.Dir(rel)
	for _, s := range strings.Split(dir, "/") {
		if strings.EqualFold(s, seg) {
			return true
		}
	}
	return false
}

// Rejected reports whether ds holds an error, which keeps the document out of
// the snapshot.
func Rejected(ds []schema.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == schema.SeverityError {
			return true
		}
	}
	return false
}

// Slug turns a folder name into a stable lower-case label: letters and
// digits kept, every other run of characters a single '-'.
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

type diagnostics struct {
	path string
	list []schema.Diagnostic
}

func (d *diagnostics) add(line int, sev schema.Severity, code, msg string) {
	d.list = append(d.list, schema.Diagnostic{Path: d.path, Line: line, Severity: sev, Code: code, Message: msg})
}

// Digest is the SHA-256 of a file's bytes as read, before normalisation:
// what a run's input fingerprint is made of.
func Digest(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// UnreadableDigest stands for the bytes of a document that cannot be read
// in an input fingerprint (Reader.InputDigest, Unreadable): the same each night
// the file stays unreadable, another once it can be read.
const UnreadableDigest = "unreadable"

// Unreadable is the rejected document at rel that could not be read: an
// error diagnostic naming the file and why (the system's words, without
// the absolute path), and UnreadableDigest for its bytes.
func Unreadable(rel string, err error) Parsed {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	d := schema.Diagnostic{Path: rel, Severity: schema.SeverityError, Code: SkipUnreadable,
		Message: fmt.Sprintf("cannot be read (%v): check its permissions; skipped", err)}
	return Parsed{Doc: schema.Document{Path: rel}, Diags: []schema.Diagnostic{d}, Rejected: true, RawSHA256: UnreadableDigest}
}

// DigestFile is Digest of the file at path, read as a stream: a file too
// large to load is still part of the input fingerprint.
func DigestFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
