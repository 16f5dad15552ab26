package html

import (
	"strings"

	"golang.org/x/net/html/atom"
)

// What each element is to a reader, decided once here: the walker asks
// these tables, never the tag names.

// void elements have no content and no end tag.
var void = set(atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input, atom.Keygen,
	atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr)

// unseen elements hold nothing a reader sees on the page: code, styles,
// templates, the text shown without scripts, pictures drawn in markup,
// embedded documents and form controls (the "Copy" button on a code block).
var unseen = set(atom.Head, atom.Script, atom.Style, atom.Template, atom.Noscript, atom.Svg, atom.Iframe, atom.Object,
	atom.Canvas, atom.Audio, atom.Video, atom.Select, atom.Datalist, atom.Button, atom.Textarea, atom.Dialog, atom.Map,
	atom.Noembed, atom.Noframes, atom.Frameset)

// chrome elements are the site around the page: navigation always; a
// header, footer or sidebar when it belongs to the page, not to an article
// or section of its content (see walker.chrome).
var chrome = set(atom.Nav, atom.Header, atom.Footer, atom.Aside, atom.Search)

// boundaries end the run of text before them: a paragraph does not flow
// through them. Every element not listed here, void or not, is inline.
var boundaries = set(atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Body, atom.Caption, atom.Center,
	atom.Dd, atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Dt, atom.Fieldset, atom.Figcaption, atom.Figure,
	atom.Footer, atom.Form, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Header, atom.Hgroup, atom.Hr,
	atom.Html, atom.Legend, atom.Li, atom.Listing, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P, atom.Pre, atom.Search,
	atom.Section, atom.Summary, atom.Table, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr, atom.Ul, atom.Xmp,
	atom.Plaintext, atom.Option, atom.Optgroup)

// closesP are the start tags that close an open paragraph (HTML's "close a
// p element" steps): a paragraph never holds a block.
var closesP = set(atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Details, atom.Dialog,
	atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Header, atom.Hgroup,
	atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P, atom.Search, atom.Section, atom.Summary, atom.Ul, atom.H1, atom.H2,
	atom.H3, atom.H4, atom.H5, atom.H6, atom.Pre, atom.Listing, atom.Form, atom.Hr, atom.Table, atom.Xmp, atom.Plaintext,
	atom.Li, atom.Dd, atom.Dt)

// scopes are the elements an end tag does not close through, nor an open
// paragraph or list item reach across (HTML's "has an element in scope"):
// a </div> inside a table cell does not end the table.
var scopes = set(atom.Applet, atom.Caption, atom.Html, atom.Table, atom.Td, atom.Th, atom.Marquee, atom.Object,
	atom.Template, atom.Button)

// itemStops are the elements a new list item does not close an open one
// across (HTML's "special" category, less address, div and p): an item of
// a nested list leaves its parent item open.
var itemStops = set(atom.Applet, atom.Article, atom.Aside, atom.Blockquote, atom.Body, atom.Caption, atom.Center,
	atom.Details, atom.Dir, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.Header,
	atom.Hgroup, atom.Html, atom.Main, atom.Marquee, atom.Menu, atom.Nav, atom.Object, atom.Ol, atom.Pre, atom.Search,
	atom.Section, atom.Summary, atom.Table, atom.Td, atom.Th, atom.Tr, atom.Ul, atom.H1, atom.H2, atom.H3, atom.H4,
	atom.H5, atom.H6, atom.Li, atom.Dd, atom.Dt)

var headings = map[atom.Atom]int{atom.H1: 1, atom.H2: 2, atom.H3: 3, atom.H4: 4, atom.H5: 5, atom.H6: 6}

// lists hold items: ul and ol, the old menu and dir, and definition lists
// (a term and its definitions are one item).
var lists = set(atom.Ul, atom.Ol, atom.Menu, atom.Dir, atom.Dl)

// code elements keep their white space: what is in them is code.
var code = set(atom.Pre, atom.Listing, atom.Xmp, atom.Plaintext)

// hiddenRoles are ARIA landmarks of the site around the page, and the tab
// buttons above tab panels (the panels' words are the content).
var hiddenRoles = map[string]bool{"navigation": true, "banner": true, "contentinfo": true, "search": true, "tablist": true}

// chromeClasses are class or id names that generators give what is not
// the page's words: a banner, navigation bars and the previous/up/next
// tables of DocBook manuals, breadcrumbs and page metadata (Confluence),
// a page's table of contents (its headings again, as links), text for
// screen readers only, the permalink after a heading (Sphinx, MkDocs,
// Docusaurus), line numbers beside code (Pygments, Chroma, Rouge).
var chromeClasses = map[string]bool{
	"banner": true, "nav": true, "navbar": true, "navheader": true, "navfooter": true, "breadcrumb": true, "breadcrumbs": true, "breadcrumb-section": true, "page-metadata": true,
	"toc": true, "table-of-contents": true, "table_of_contents": true, "footer": true,
	"site-footer": true, "site-header": true, "sidebar": true, "skip-link": true, "sr-only": true,
	"visually-hidden": true, "visuallyhidden": true, "screen-reader-text": true, "headerlink": true, "hash-link": true,
	"anchorjs-link": true, "linenos": true, "lineno": true, "linenodiv": true, "lnt": true, "ln": true, "gutter": true,
	"line-numbers-rows": true, "hljs-ln-numbers": true,
}

// codeTables are tables a highlighter lays code out in (line numbers in
// one cell, the code in the other): not tables of data.
var codeTables = map[string]bool{"highlighttable": true, "lntable": true, "rouge-table": true, "codehilitetable": true}

// noteKinds are the kinds of admonition (note, tip, warning…) a class
// names, as sites write them: "admonition warning" (Sphinx, MkDocs),
// "theme-admonition-tip" (Docusaurus), "alert alert-warning" (Bootstrap,
// Docsy), "markdown-alert-note" (GitHub), "confluence-information-macro-
// note" (Confluence). information is info.
var noteKinds = map[string]string{"note": "note", "tip": "tip", "hint": "hint", "info": "info", "information": "info",
	"warning": "warning", "caution": "caution", "danger": "danger", "important": "important", "attention": "attention",
	"error": "error"}

var notePrefixes = []string{"confluence-information-macro-", "theme-admonition-", "markdown-alert-", "admonition-", "alert-", "callout-"}

var noteMarks = map[string]bool{"admonition": true, "alert": true, "callout": true, "confluence-information-macro": true,
	"theme-admonition": true, "markdown-alert": true}

// noteKind is the kind of admonition an element's classes name, or "".
func noteKind(class string) string {
	marked, kind := false, ""
	for _, c := range strings.Fields(strings.ToLower(class)) {
		if noteMarks[c] {
			marked = true
			continue
		}
		for _, p := range notePrefixes {
			if k, ok := noteKinds[strings.TrimPrefix(c, p)]; ok && strings.HasPrefix(c, p) {
				return k
			}
		}
		if k, ok := noteKinds[c]; ok && kind == "" {
			kind = k
		}
	}
	if marked {
		return kind
	}
	return ""
}

func set(as ...atom.Atom) map[atom.Atom]bool {
	m := make(map[atom.Atom]bool, len(as))
	for _, a := range as {
		m[a] = true
	}
	return m
}
