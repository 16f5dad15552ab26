package corpus

import (
	"fmt"
	"strings"
)

// The Markdown parser's inline pass is quadratic in three shapes a line
// scan can bound (measured on goldmark 1.8: each doubling took 4 to 7
// times as long):
//
//   - emphasis: each closing "*" or "_" run scans back over every opener of
//     its block that it cannot close (396 KB of "*a_ " took 41 s), so the
//     runs of one block (lines between blank lines) are bounded: the work
//     is then at most MaxBlockDelimiters times the document's runs;
//   - link destinations: each "](" scans ahead to the next white space (to
//     the next ">" on the line for "](<"), so "[x](" 50,000 times on one
//     line took minutes; the "](" of one run of text without white space
//     (of one line, for "](<") are bounded the same way;
//   - tables: every row gets as many cells as the header, written or not,
//     so a header of 2,000 columns over rows of one cell made 6 GB of cells
//     from 200 KB; the cells a table makes, header columns times rows, are
//     bounded by MaxTableCells.
//
// The scan runs on the text the parser reads (markup removed: a link
// definition's URL is not inline text), outside fenced code.

// Defaults of the inline limits, each with its reason.
const (
	// DefaultMaxBlockDelimiters is 11 times the most one block of the
	// OpenTelemetry docs has (177), and bounds a block's emphasis pass to a
	// few milliseconds.
	DefaultMaxBlockDelimiters = 2_000
	// DefaultMaxLinkOpeners is 25 times the most "](" one run of the
	// OpenTelemetry docs has (5, a row of badges).
	DefaultMaxLinkOpeners = 128
	// DefaultMaxTableCells is 140 times the cells of the OpenTelemetry docs'
	// largest table page (681); the parser keeps about 350 bytes a cell, so
	// a document's tables stay under 35 MB.
	DefaultMaxTableCells = 100_000
)

// CheckInline scans view (a document's text as the Markdown parser will
// read it, its body from bodyStart) for the quadratic shapes above and
// returns the line (of the document) and message of the first excess.
func CheckInline(view string, bodyStart int, l Limits) (line int, code, msg string) {
	l = l.orDefault()
	line = 1 + strings.Count(view[:bodyStart], "\n")
	var fence string
	runs := 0  // emphasis runs in the current block
	cols := 0  // columns of the current table; 0 outside one
	cells := 0 // cells the document's tables make
	prev := "" // the previous line, a table's header row when this one is its delimiter row
	for rest := view[bodyStart:]; rest != ""; line++ {
		ln := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			ln, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		body := strings.TrimLeft(ln, " \t")
		if fence != "" {
			if strings.HasPrefix(body, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(body, "```") || strings.HasPrefix(body, "~~~") {
			fence, runs, cols, prev = body[:3], 0, 0, ""
			continue
		}
		if strings.TrimSpace(body) == "" {
			runs, cols, prev = 0, 0, ""
			continue
		}
		if runs += emphasisRuns(ln); runs > l.MaxBlockDelimiters {
			return line, "too-many-block-delimiters", fmt.Sprintf("over limits.max_block_delimiters (%d) emphasis marks (runs of * and _) in one paragraph; the parser's time grows with their square: add blank lines, escape them (\\*), or raise the limit", l.MaxBlockDelimiters)
		}
		if n := linkOpeners(ln); n > l.MaxLinkOpeners {
			return line, "too-many-link-openers", fmt.Sprintf("%d link destinations (\"](\") in one run of text without a space, over limits.max_link_openers (%d); the parser rescans the run for each: separate the links with spaces, or raise the limit", n, l.MaxLinkOpeners)
		}
		switch {
		case cols > 0:
			cells += cols // every line to the paragraph's end is a row, filled to the header's width
		case prev != "" && isDelimiterRow(body):
			cols = strings.Count(strings.Trim(strings.TrimSpace(body), "|"), "|") + 1
			cells += 2 * cols // the header and the delimiter row
		}
		if cells > l.MaxTableCells {
			return line, "too-many-table-cells", fmt.Sprintf("tables of over limits.max_table_cells (%d) cells (header columns times rows, the cells the parser makes for each row): split the table, or raise the limit", l.MaxTableCells)
		}
		if cols == 0 && strings.Contains(ln, "|") {
			prev = ln
		} else {
			prev = ""
		}
	}
	return 0, "", ""
}

// emphasisRuns counts the runs of "*" and "_" on a line (each run is one
// delimiter to the parser), less those escaped with a backslash.
func emphasisRuns(ln string) int {
	n := 0
	for i := 0; i < len(ln); i++ {
		c := ln[i]
		if c == '\\' {
			i++ // an escaped character is text
			continue
		}
		if c != '*' && c != '_' {
			continue
		}
		n++
		for i+1 < len(ln) && ln[i+1] == c {
			i++
		}
	}
	return n
}

// linkOpeners is the most link destinations the parser scans over one
// stretch of a line: the "](" of one run without white space, or the
// "](<" of the whole line (such a destination ends at ">", not at a space).
func linkOpeners(ln string) int {
	if !strings.Contains(ln, "](") {
		return 0
	}
	most := strings.Count(ln, "](<")
	for _, run := range strings.Fields(ln) {
		most = max(most, strings.Count(run, "]("))
	}
	return most
}

// isDelimiterRow reports a table's delimiter row: cells of dashes with
// optional colons, separated by pipes ("|---|:--:|").
func isDelimiterRow(s string) bool {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "-") {
		return false
	}
	for _, c := range s {
		switch c {
		case '|', '-', ':', ' ', '\t':
		default:
			return false
		}
	}
	return true
}
