package markdown

import (
	"regexp"
	"strings"
)

// Content tabs show one of several bodies under a title ("Windows",
// "npm", "Traces"): MkDocs Material's `=== "Title"` with a body indented
// four spaces, Hugo's tabpane and tab shortcodes, Docusaurus's <Tabs> and
// <TabItem label="…">. A tab's title is the context of its body the way a
// heading is: it ends the section path of every chunk cut from the body
// (so a chunk reads "Install › Windows"), and it is never a chunk of its
// own. Tabs are kept apart from their neighbours the way admonitions are,
// but the lead-in above a tab pane introduces the code of every tab.

// markupTab counts the MkDocs tab titles removed, as report.json does.
const markupTab = "content_tab"

// mkdocsTabRe is a MkDocs Material content tab's title line.
var mkdocsTabRe = regexp.MustCompile(`^===[!+]?[ \t]+"([^"\n]*)"[ \t]*$`)

// shortcodeTab reads a Hugo shortcode: whether it opens a tab (with its
// title) or closes one. {{% tab Java %}}, {{% tab "Linux/macOS" %}},
// {{< tab header="Maven (`pom.xml`)" lang=Maven >}} open; {{% /tab %}}
// closes.
func shortcodeTab(sc string) (title string, open, closing bool) {
	in := strings.TrimSpace(strings.Trim(sc[3:len(sc)-3], "- \t\n"))
	if rest, ok := strings.CutPrefix(in, "/"); ok {
		return "", false, strings.TrimSpace(rest) == "tab"
	}
	name, args, _ := strings.Cut(in, " ")
	if name != "tab" {
		return "", false, false
	}
	args = strings.TrimSpace(args)
	if i := strings.Index(args, "header="); i >= 0 {
		return tabTitle(args[i+len("header="):]), true, false
	}
	return tabTitle(args), true, false
}

// tabTitle is the first argument of a shortcode or attribute value: a
// quoted string or a word, as plain text (no backticks).
func tabTitle(s string) string {
	s = strings.TrimSpace(s)
	var t string
	switch {
	case s == "":
		return ""
	case s[0] == '"' || s[0] == '\'':
		t, _, _ = strings.Cut(s[1:], s[:1])
	default:
		t, _, _ = strings.Cut(s, " ")
	}
	t = iconRe.ReplaceAllString(t, "") // === ":material-card-remove: Deprecated": the icon is a picture
	return strings.Join(strings.Fields(strings.ReplaceAll(t, "`", "")), " ")
}

// hugoTabs are the tabs that pairs of tab shortcodes (sorted spans of body)
// open and close: each from the end of its opening shortcode to the start
// of its closing one. A tab never closed runs to the end of the body.
func hugoTabs(body string, spans [][]int) []admonition {
	var out []admonition
	open := -1
	for _, sp := range spans {
		title, opens, closes := shortcodeTab(body[sp[0]:sp[1]])
		switch {
		case opens:
			if open >= 0 {
				out[open].end = sp[0] // a tab opened inside another: the other ends here
			}
			out = append(out, admonition{kind: "tab", title: title, start: sp[1], end: len(body)})
			open = len(out) - 1
		case closes && open >= 0:
			out[open].end = sp[0]
			open = -1
		}
	}
	return out
}
