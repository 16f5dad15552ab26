package include

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// part is the part of an included file's text d asks for: its lines
// ("3:10", ":6", "12:", several joined by commas), a snippet section (the
// lines between "--8<-- [start:name]" and "--8<-- [end:name]"), or the text
// between include-markdown's start and end markers. Section markers are
// never part of what is included: they are the including site's markup.
func (d directive) part(text string) (string, error) {
	if d.hugo {
		text = withoutFrontMatter(text)
	}
	switch {
	case d.block != "":
		var err error
		if text, err = braceBlock(text, d.block, d.inside); err != nil {
			return "", err
		}
	case d.start != "" || d.end != "":
		if d.start != "" {
			i := strings.Index(text, d.start)
			if i < 0 {
				return "", fmt.Errorf("start marker %q not found", d.start)
			}
			text = text[i+len(d.start):]
		}
		if d.end != "" {
			if i := strings.Index(text, d.end); i >= 0 {
				text = text[:i]
			}
		}
	case d.sel != "" && strings.Trim(d.sel, "0123456789:,") == "":
		var err error
		if text, err = lineRanges(text, d.sel); err != nil {
			return "", err
		}
	case d.sel != "":
		var err error
		if text, err = section(text, d.sel); err != nil {
			return "", err
		}
	}
	return dropSectionMarkers(text), nil
}

// lineRanges are the lines of text that sel names (1-based, inclusive).
func lineRanges(text, sel string) (string, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var out []string
	for _, r := range strings.Split(sel, ",") {
		a, b, _ := strings.Cut(r, ":")
		from, to := 1, len(lines)
		var err error
		if a != "" {
			if from, err = strconv.Atoi(a); err != nil {
				return "", fmt.Errorf("line range %q: %w", r, err)
			}
		}
		if b != "" {
			if to, err = strconv.Atoi(b); err != nil {
				return "", fmt.Errorf("line range %q: %w", r, err)
			}
		}
		from, to = max(from, 1), min(to, len(lines))
		if from > to {
			return "", fmt.Errorf("line range %q outside the file's %d lines", r, len(lines))
		}
		out = append(out, lines[from-1:to]...)
	}
	return strings.Join(out, "\n") + "\n", nil
}

// section is the text between a snippet section's start and end markers.
func section(text, name string) (string, error) {
	var out []string
	in, found := false, false
	for _, l := range strings.SplitAfter(text, "\n") {
		if m := sectionRe.FindStringSubmatch(l); m != nil && m[2] == name {
			in, found = m[1] == "start", true
			continue
		}
		if in {
			out = append(out, l)
		}
	}
	if !found {
		return "", fmt.Errorf("section %q not found", name)
	}
	return strings.Join(out, ""), nil
}

// dropSectionMarkers removes the lines that only mark a snippet section.
func dropSectionMarkers(text string) string {
	if !strings.Contains(text, "8<") {
		return text
	}
	var out []string
	for _, l := range strings.SplitAfter(text, "\n") {
		if !sectionRe.MatchString(l) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// withoutFrontMatter is text past its front matter, YAML between "---"
// lines or TOML between "+++" lines: a Hugo include shortcode renders the
// partial's content, never its front matter (otel's translated partials
// open with default_lang_commit and drifted_from_default, which a reader
// never sees). Text whose front matter never closes is kept whole.
func withoutFrontMatter(text string) string {
	first, rest, ok := strings.Cut(text, "\n")
	fence := strings.TrimRight(first, " \t\r")
	if !ok || fence != "---" && fence != "+++" {
		return text
	}
	for off := 0; off < len(rest); {
		line, _, _ := strings.Cut(rest[off:], "\n")
		next := off + len(line) + 1
		if strings.TrimRight(line, " \t\r") == fence {
			return rest[min(next, len(rest)):]
		}
		off = next
	}
	return text
}

// rawTagRe is Jinja's {% raw %} or {% endraw %}, with its whitespace
// control, and the line's end when the tag is all the line holds.
var rawTagRe = regexp.MustCompile(`(?m)^[ \t]*\{%-?[ \t]*(?:end)?raw[ \t]*-?%\}[ \t]*\n|\{%-?[ \t]*(?:end)?raw[ \t]*-?%\}`)

// withoutRawTags is a file a Jinja include renders, without its raw tags:
// mkdocs-macros renders an included file as a template, and {% raw %} …
// {% endraw %} (which External Secrets' YAML snippets wrap around their
// {{ .template }} fields) renders as nothing but what it holds.
func withoutRawTags(text string) string {
	if !strings.Contains(text, "raw") {
		return text
	}
	return rawTagRe.ReplaceAllString(text, "")
}
