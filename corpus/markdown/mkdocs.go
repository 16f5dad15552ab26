package markdown

import (
	"regexp"
	"strings"
)

// Three more of the Python-Markdown extensions MkDocs sites write, each
// read as the rendered page shows it:
//   - a mkdocstrings directive ("::: fastapi.APIRouter") stands for the
//     reference of that object: its name is kept, as the words a reader
//     searches by, its ":::" goes, and the YAML options indented under it
//     (members, show_source) are the directive's, not code;
//   - an abbreviation ("*[HTML]: Hyper Text Markup Language") renders as
//     nothing where it is defined: its line goes;
//   - a definition list ("Term" then ":   Its definition") renders as the
//     term above its definition: the ":" goes, and the definition's
//     continuation, indented four spaces, moves left with it so the
//     parser reads it as the paragraph it is, not as code.

// The kinds of MkDocs markup removed, as report.json counts them.
const (
	markupDirective    = "mkdocstrings"
	markupAbbreviation = "abbreviation"
	markupDefinition   = "definition_list"
)

var (
	// ::: package.module.Object (an identifier; "::: note" with words after
	// it is a Docusaurus admonition, read by colonAdmonitionRe)
	directiveRe    = regexp.MustCompile(`^:::[ \t]+([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+|[A-Za-z_]\w*)[ \t]*$`)
	abbreviationRe = regexp.MustCompile(`^\*\[[^\]\n]+\]:.*$`)
	definitionRe   = regexp.MustCompile(`^:[ \t]{1,4}\S`)
)

// mkdocsLines reads the lines of those three extensions, one at a time.
type mkdocsLines struct {
	options    bool // under a directive: its indented options
	definition bool // in a definition: its indented continuation
	prevText   bool // the last non-blank line was text a definition can follow (its term)
}

// line reads one line of the body (at start): whether it was the
// markup of a directive, an abbreviation or a definition, blanked or moved.
func (m *mkdocsLines) line(c *cleaned, start int, line string) bool {
	blankLine := strings.TrimSpace(line) == ""
	if m.options || m.definition {
		switch {
		case blankLine:
			return false
		case strings.HasPrefix(line, "    ") && m.options:
			c.blank(markupDirective, start, start+len(line))
			c.counts[markupDirective]-- // counted with its directive
			return true
		case strings.HasPrefix(line, "    "):
			c.shifts = append(c.shifts, shift{start, start + len(line), 4})
			return true
		}
		m.options, m.definition = false, false
	}
	prev := m.prevText
	if !blankLine {
		m.prevText = !strings.HasPrefix(line, ":") && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "    ")
	}
	switch {
	case strings.HasPrefix(line, ":::"):
		// "::: tip" alone (OPA's docs write three) opens a tip, not the
		// reference of a module named tip (admonitionKinds: pymdown.go).
		if loc := directiveRe.FindStringSubmatchIndex(line); loc != nil && !admonitionKinds[strings.ToLower(line[loc[2]:loc[3]])] {
			c.blank(markupDirective, start, start+loc[2]) // the name stays
			m.options, m.prevText = true, false
			return true
		}
	case strings.HasPrefix(line, "*["):
		if abbreviationRe.MatchString(line) {
			c.blank(markupAbbreviation, start, start+len(line))
			m.prevText = false
			return true
		}
	case strings.HasPrefix(line, ":") && prev:
		if definitionRe.MatchString(line) {
			n := 1 + len(line[1:]) - len(strings.TrimLeft(line[1:], " \t"))
			c.blank(markupDefinition, start, start+n)
			m.definition, m.prevText = true, true // a term may have several definitions
			return true
		}
	}
	return false
}
