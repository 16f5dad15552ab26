package markdown

import (
	"regexp"
	"strings"
)

// MDX statements that span lines are markup as a one-line import or export
// is (mdxLineRe):
//
//	import {
//	  Tabs,
//	  TabItem,
//	} from '@theme/Tabs';
//
//	export const toc = [
//	  {value: 'Install', id: 'install'},
//	];
//
// An import runs to its "} from '…'" line, an export until its brackets
// close; one that does not end within mdxStatementLines is left as text.

// mdxStatementLines bounds the lines read for a statement's end: an import
// list or a page's metadata, not a program.
const mdxStatementLines = 100

var (
	importOpenRe  = regexp.MustCompile(`^import[ \t]+(?:[A-Za-z_$][\w$]*[ \t]*,[ \t]*)?\{[^}'"]*$`)
	importNameRe  = regexp.MustCompile(`^[ \t]*(?:[A-Za-z_$][\w$]*(?:[ \t]+as[ \t]+[A-Za-z_$][\w$]*)?[ \t]*,?[ \t]*)*$`)
	importCloseRe = regexp.MustCompile(`^[ \t]*(?:[A-Za-z_$][\w$]*(?:[ \t]+as[ \t]+[A-Za-z_$][\w$]*)?[ \t]*,?[ \t]*)*\}[ \t]*from[ \t]+(['"])[^'"\n]+['"];?[ \t]*(?://.*)?$`)
	exportOpenRe  = regexp.MustCompile(`^export[ \t]+(?:const|let|function|default)\b`)
)

// mdxStatementEnd is the end (an offset of body: its last line's end) of the
// statement whose first line, line, starts at start; -1 when line opens none
// or it does not end in time.
func mdxStatementEnd(body string, start int, line string) int {
	importing := importOpenRe.MatchString(line)
	depth := 0
	if !importing {
		if !exportOpenRe.MatchString(line) {
			return -1
		}
		if depth = brackets(line); depth <= 0 {
			return -1
		}
	}
	off := start + len(line) + 1 // the next line
	for n := 0; n < mdxStatementLines && off < len(body); n++ {
		le := lineEnd(body, off)
		l := body[off:le]
		off = le + 1
		switch {
		case importing && importCloseRe.MatchString(l):
			return le
		case importing && (strings.TrimSpace(l) == "" || !importNameRe.MatchString(l)):
			return -1
		case !importing:
			if depth += brackets(l); depth <= 0 {
				return le
			}
		}
	}
	return -1
}

// brackets is how many brackets line opens, less those it closes, outside
// its string literals.
func brackets(line string) int {
	n := 0
	var quote byte
	for i := 0; i < len(line); i++ {
		switch b := line[i]; {
		case quote != 0:
			if b == '\\' {
				i++
			} else if b == quote {
				quote = 0
			}
		case b == '\'' || b == '"' || b == '`':
			quote = b
		case b == '/' && i+1 < len(line) && line[i+1] == '/':
			return n
		case b == '{' || b == '[' || b == '(':
			n++
		case b == '}' || b == ']' || b == ')':
			n--
		}
	}
	return n
}
