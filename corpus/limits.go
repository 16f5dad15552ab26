package corpus

import (
	"fmt"
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/sentence"
)

// Limits bound the cost of one document. The Markdown parser's time and
// memory grow faster than linearly with nesting (a list 4,000 levels deep
// took minutes and a gigabyte), and it cannot be interrupted mid-document;
// a cheap scan of the lines rejects such a document before it is parsed, so
// no single file can stall a run. The defaults are far above any real
// documentation page.
type Limits struct {
	MaxBytes  int `yaml:"max_bytes" json:"max_bytes"`   // a document's size
	MaxDepth  int `yaml:"max_depth" json:"max_depth"`   // nested quotes and list items
	MaxBlocks int `yaml:"max_blocks" json:"max_blocks"` // paragraphs, items, headings, fences
	// MaxDelimiters bounds the link, emphasis, code and HTML openers
	// ([ * _ ` <) outside fenced code: the parser keeps a few hundred bytes
	// for each, so 8 MiB of "[" took 3 GB.
	MaxDelimiters int `yaml:"max_delimiters" json:"max_delimiters"`
	// MaxBlockDelimiters, MaxLinkOpeners and MaxTableCells bound the shapes
	// whose parse time or memory grows with their square (CheckInline).
	MaxBlockDelimiters int `yaml:"max_block_delimiters" json:"max_block_delimiters"` // emphasis runs in one paragraph
	MaxLinkOpeners     int `yaml:"max_link_openers" json:"max_link_openers"`         // "](" in one run of text without a space
	MaxTableCells      int `yaml:"max_table_cells" json:"max_table_cells"`           // header columns times rows, over a document's tables
}

// Defaults of Limits, each with its reason.
const (
	DefaultMaxBytes  = 8 << 20 // 8 MiB: a long handbook is under 1 MiB; a bigger file is an export or a dump
	DefaultMaxDepth  = 64      // real pages nest lists and quotes a few levels, never dozens
	DefaultMaxBlocks = 50_000  // a 1 MiB page has a few thousand blocks
	// DefaultMaxDelimiters is 20 times the most a real page had (10,211 in
	// the OpenTelemetry docs, code included), about 80 MB of parser state.
	DefaultMaxDelimiters = 200_000
)

// Resolved is l with the limits left at zero set to their defaults: what a
// format checks a document against.
func (l Limits) Resolved() Limits { return l.orDefault() }

// orDefault fills the limits left at zero.
func (l Limits) orDefault() Limits {
	d := DefaultLimits()
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxBlocks <= 0 {
		l.MaxBlocks = d.MaxBlocks
	}
	if l.MaxDelimiters <= 0 {
		l.MaxDelimiters = d.MaxDelimiters
	}
	if l.MaxBlockDelimiters <= 0 {
		l.MaxBlockDelimiters = d.MaxBlockDelimiters
	}
	if l.MaxLinkOpeners <= 0 {
		l.MaxLinkOpeners = d.MaxLinkOpeners
	}
	if l.MaxTableCells <= 0 {
		l.MaxTableCells = d.MaxTableCells
	}
	return l
}

// DefaultLimits are the limits when none are configured.
func DefaultLimits() Limits {
	return Limits{MaxBytes: DefaultMaxBytes, MaxDepth: DefaultMaxDepth, MaxBlocks: DefaultMaxBlocks, MaxDelimiters: DefaultMaxDelimiters,
		MaxBlockDelimiters: DefaultMaxBlockDelimiters, MaxLinkOpeners: DefaultMaxLinkOpeners, MaxTableCells: DefaultMaxTableCells}
}

// TooLarge is the diagnostic of a document over MaxBytes, for a caller that
// refuses it before reading it.
func TooLarge(rel string, size int64, l Limits) []schema.Diagnostic {
	return []schema.Diagnostic{{Path: rel, Severity: schema.SeverityError, Code: "too-large",
		Message: fmt.Sprintf("%d bytes, over limits.max_bytes (%d); split the document, or raise the limit", size, l.MaxBytes)}}
}

// checkShape scans text's lines for nesting deeper than MaxDepth, more
// blocks than MaxBlocks and more inline marks than MaxDelimiters, and returns the line and message of the first
// excess. It tracks only what the parser nests: block quotes (">" at the
// start of a line) and list items (a marker after some indentation, kept on
// a stack of open items), skipping fenced code, whose lines nest nothing.
func checkShape(text string, l Limits) (line int, code, msg string) {
	var stack []int // indentation of the open list items
	var fence string
	blocks, delims, blank := 0, 0, true
	for n, ln := range strings.Split(text, "\n") {
		line = n + 1
		if fence != "" {
			if strings.HasPrefix(strings.TrimLeft(ln, " "), fence) {
				fence = ""
			}
			continue
		}
		quotes, rest := quotePrefix(ln)
		if quotes > l.MaxDepth {
			return line, "too-deep", fmt.Sprintf("block quotes nested %d deep, over limits.max_depth (%d)", quotes, l.MaxDepth)
		}
		indent, body := indentOf(rest)
		if body == "" {
			blank = true
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1] >= indent {
			stack = stack[:len(stack)-1]
		}
		starts := blank
		switch {
		case strings.HasPrefix(body, "```") || strings.HasPrefix(body, "~~~"):
			fence, starts = body[:3], true
		case sentence.MarkerLen(body) > 0:
			stack, starts = append(stack, indent), true
		case strings.HasPrefix(body, "#"):
			starts = true
		}
		if delims += strings.Count(body, "[") + strings.Count(body, "*") + strings.Count(body, "_") +
			strings.Count(body, "`") + strings.Count(body, "<"); delims > l.MaxDelimiters {
			return line, "too-many-delimiters", fmt.Sprintf("over limits.max_delimiters (%d) link, emphasis, code and HTML marks outside code blocks; split the document, or raise the limit", l.MaxDelimiters)
		}
		if d := quotes + len(stack); d > l.MaxDepth {
			return line, "too-deep", fmt.Sprintf("lists and quotes nested %d deep, over limits.max_depth (%d)", d, l.MaxDepth)
		}
		if starts {
			if blocks++; blocks > l.MaxBlocks {
				return line, "too-many-blocks", fmt.Sprintf("over limits.max_blocks (%d) paragraphs, items and headings; split the document, or raise the limit", l.MaxBlocks)
			}
		}
		blank = false
	}
	return 0, "", ""
}

// quotePrefix counts the ">" markers opening a line (each may follow up to
// three spaces) and returns the rest of the line.
func quotePrefix(s string) (int, string) {
	n := 0
	for {
		t := strings.TrimLeft(s, " ")
		if len(s)-len(t) > 3 || !strings.HasPrefix(t, ">") {
			return n, s
		}
		n++
		s = t[1:]
	}
}

// indentOf returns the columns of leading white space (a tab is four) and
// the rest of the line.
func indentOf(s string) (int, string) {
	cols := 0
	for i, r := range s {
		switch r {
		case ' ':
			cols++
		case '\t':
			cols += 4
		default:
			return cols, strings.TrimRight(s[i:], " \t")
		}
	}
	return cols, ""
}
