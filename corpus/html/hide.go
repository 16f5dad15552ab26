package html

import (
	"strings"
	"unicode"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// hides reports whether the element t opens hides its content from a
// reader: what is never shown, the site around the page, what is hidden.
func (w *walker) hides(t token) bool {
	if unseen[t.tag] || t.tag == atom.Nav {
		return true
	}
	if chrome[t.tag] && w.content == 0 {
		return true
	}
	role := strings.ToLower(attrOf(t, "role"))
	if hiddenRoles[role] {
		return true
	}
	if t.tag == atom.A && strings.HasPrefix(attrOf(t, "href"), "#") && w.permalink() {
		return true
	}
	for _, c := range strings.Fields(strings.ToLower(attrOf(t, "class") + " " + attrOf(t, "id"))) {
		if chromeClasses[c] {
			return true
		}
	}
	if role == "tabpanel" {
		return false // a tab not chosen yet: its words are the page's
	}
	if _, ok := t.attr("hidden"); ok || attrIs(t, "aria-hidden", "true") {
		return true
	}
	style := strings.ReplaceAll(strings.ToLower(attrOf(t, "style")), " ", "")
	return strings.Contains(style, "display:none") || strings.Contains(style, "visibility:hidden")
}

// hiddenKind is the markup count an element hidden as t counts under.
func (w *walker) hiddenKind(t token) string {
	if chrome[t.tag] || hiddenRoles[strings.ToLower(attrOf(t, "role"))] {
		return markupChrome
	}
	return markupHidden
}

// permalink reports whether the link whose start tag was just read holds
// no word: the "¶" or "#" a site puts after a heading to link to it.
func (w *walker) permalink() bool {
	for k := range 8 {
		t, ok := w.lx.peek(k)
		if !ok {
			return false
		}
		switch t.typ {
		case nethtml.EndTagToken:
			if t.tag == atom.A {
				return true
			}
		case nethtml.TextToken:
			if strings.IndexFunc(nethtml.UnescapeString(w.doc.Text[t.start:t.end]), isWordRune) >= 0 {
				return false
			}
		case nethtml.StartTagToken:
			if t.tag == atom.Img {
				return false
			}
		}
	}
	return false
}

// The kinds of markup removed, as report.json counts them: tags and
// comments (as the Markdown format counts the HTML in a page), what a
// reader never sees (scripts, styles, hidden elements) and the site
// around the page (navigation, headers, footers, sidebars).
const (
	markupTag     = "html_tag"
	markupComment = "html_comment"
	markupHidden  = "html_hidden"
	markupChrome  = "page_chrome"
)

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
