package include

import (
	"fmt"
	"regexp"
	"strings"
)

// mkdocs-codeinclude-plugin, as testcontainers-go's docs write it (444
// examples): a block between HTML comments, each line a link to a source
// file and what of it to show, rendered as that code:
//
//	<!--codeinclude-->
//	[Creating a container](../../examples_test.go) inside_block:ExampleRun
//	<!--/codeinclude-->
//
// inside_block:X is the body of the first brace block whose opening line
// holds X, block:X that block with its first and last lines, lines:A-B
// those lines; none is the whole file. The link's title names a tab the
// rendered page shows; the code is what a reader reads.
var (
	codeincludeOpenRe  = regexp.MustCompile(`^[ \t]*<!--[ \t]*codeinclude[ \t]*-->[ \t]*$`)
	codeincludeCloseRe = regexp.MustCompile(`^[ \t]*<!--[ \t]*/codeinclude[ \t]*-->[ \t]*$`)
	codeincludeLinkRe  = regexp.MustCompile(`^([ \t]*)\[[^\]\n]*\]\(([^)\s]+)\)[ \t]*(?:(inside_block|block|lines):[ \t]*(\S+))?[ \t]*$`)
)

// maxCodeincludeLines bounds the lines read for a block's close: a block
// the plugin is given holds a handful of links.
const maxCodeincludeLines = 64

// codeincludes reads the codeinclude block opening at lines[0]: its
// directives, the index of each one's line, and the lines the block spans
// with its closing comment; ok is false when lines[0] opens none or
// nothing closes it nearby.
func codeincludes(lines []string) (ds []directive, at []int, n int, ok bool) {
	if !codeincludeOpenRe.MatchString(strings.TrimRight(lines[0], "\n")) {
		return nil, nil, 0, false
	}
	for j := 1; j < len(lines) && j <= maxCodeincludeLines; j++ {
		line := strings.TrimRight(lines[j], "\n")
		if codeincludeCloseRe.MatchString(line) {
			return ds, at, j + 1, true
		}
		m := codeincludeLinkRe.FindStringSubmatch(line)
		if m == nil {
			continue // a blank line, or words the plugin ignores
		}
		d := directive{indent: m[1], name: m[2], code: language(m[2])}
		switch m[3] {
		case "inside_block", "block":
			d.block, d.inside = m[4], m[3] == "inside_block"
		case "lines":
			d.sel = strings.ReplaceAll(m[4], "-", ":")
		}
		ds, at = append(ds, d), append(at, j)
	}
	return nil, nil, 0, false
}

// braceBlock is the block of text whose first line holds expr, to where
// its braces close, dedented: without that first line and the closing one
// when inside (the plugin's inside_block).
func braceBlock(text, expr string, inside bool) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if !strings.Contains(l, expr) {
			continue
		}
		depth, opened := 0, false
		for j := i; j < len(lines); j++ {
			open, closing := strings.Count(lines[j], "{"), strings.Count(lines[j], "}")
			depth += open - closing
			opened = opened || open > 0
			if opened && depth <= 0 {
				block := lines[i : j+1]
				if inside {
					block = lines[i+1 : j]
				}
				return dedent(block), nil
			}
		}
		return "", fmt.Errorf("the block at %q never closes", expr)
	}
	return "", fmt.Errorf("block %q not found", expr)
}

// dedent removes the leading blanks all non-blank lines share.
func dedent(lines []string) string {
	prefix, first := "", true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lead := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = lead, false
			continue
		}
		for !strings.HasPrefix(lead, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimPrefix(l, prefix))
	}
	return b.String()
}
