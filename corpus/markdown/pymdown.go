package markdown

import (
	"regexp"
	"strings"

	"github.com/ocean-safety/ingest/chunking"
)

// PyMdown Blocks (pymdownx.blocks, FastAPI's and SQLModel's docs) fence a
// block between slash lines, not by indentation:
//
//	/// tip | Use uv
//	    open: true
//
//	Words of the tip.
//	///
//
// An outer block takes more slashes (a "//// tab | uv" around a "/// tip");
// the fence that closes a block has its opener's count. The header names
// the block's kind and, after "|", its title; indented YAML right under it
// are the block's options. Fences and options are markup: blanked, and the
// body stays where it is (it is not indented, so nothing moves). A tab is a
// content tab (tabs.go), its title the end of its chunks' section path; an
// admonition or details block is an admonition of its kind, its title (the
// words a reader sees in its bar) in the section path the same way. A block
// kind ingest does not know (html, caption, a site's own) keeps its body
// and is counted as markupUnknownBlock, so a site's markup is never left
// in the text silently.

// The kinds of PyMdown markup removed, as report.json counts them.
const (
	markupBlock        = "pymdown_block"
	markupUnknownBlock = chunking.MarkupUnknownBlock
)

// blockFenceRe is a PyMdown Blocks fence: its slashes, its kind and title
// when it opens a block (none when it closes one).
var blockFenceRe = regexp.MustCompile(`^[ \t]*(/{3,})[ \t]*(?:([A-Za-z][\w-]*)[ \t]*(?:\|[ \t]*(.*?))?)?[ \t]*$`)

// admonitionKinds are the block kinds pymdownx.blocks.admonition renders
// as admonitions (its defaults, Material's, and the custom ones sites add).
var admonitionKinds = map[string]bool{
	"note": true, "attention": true, "caution": true, "danger": true, "error": true, "tip": true, "hint": true,
	"warning": true, "info": true, "check": true, "important": true, "abstract": true, "summary": true, "tldr": true,
	"success": true, "question": true, "help": true, "faq": true, "failure": true, "fail": true, "missing": true,
	"bug": true, "example": true, "quote": true, "cite": true, "todo": true, "settings": true, "new": true, "admonition": true,
}

// layoutKinds are the blocks that lay their body out without saying
// anything of it: their fences go, their body stays.
var layoutKinds = map[string]bool{"html": true, "caption": true, "figure-caption": true, "table-caption": true, "define": true}

// pymdownBlocks reads the fences of one body's PyMdown Blocks, line by line.
type pymdownBlocks struct {
	open    []openBlock // innermost last
	options bool        // the lines under a header are its options, until a blank or unindented one
}

type openBlock struct {
	slashes int
	list    *[]admonition // c.admonitions or c.tabs; nil for a layout or unknown block
	i       int
}

// line reads one line of the body (at start, ending before off): whether
// it was a fence or an option line of a block, blanked.
func (p *pymdownBlocks) line(c *cleaned, start, off int, line string) bool {
	if p.options {
		if strings.HasPrefix(line, "    ") && strings.TrimSpace(line) != "" {
			c.blank(markupBlock, start, start+len(line))
			c.counts[markupBlock]-- // counted with its block
			return true
		}
		p.options = false
	}
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "///") {
		return false
	}
	m := blockFenceRe.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	slashes, kind, title := len(m[1]), strings.ToLower(m[2]), tabTitle(`"`+strings.ReplaceAll(m[3], `"`, "")+`"`)
	if kind == "" {
		p.close(c, slashes, start, off, line)
		return true
	}
	b := openBlock{slashes: slashes}
	switch {
	case kind == "tab":
		c.tabs = append(c.tabs, admonition{kind: "tab", title: title, start: start, end: len(c.b)})
		b.list, b.i = &c.tabs, len(c.tabs)-1
		c.blank(markupTab, start, start+len(line))
	case admonitionKinds[kind] || kind == "details":
		c.admonitions = append(c.admonitions, admonition{kind: kind, title: title, start: start, end: len(c.b)})
		b.list, b.i = &c.admonitions, len(c.admonitions)-1
		c.blank(markupAdmonition, start, start+len(line))
	case layoutKinds[kind]:
		c.blank(markupBlock, start, start+len(line))
	default:
		c.blank(markupUnknownBlock, start, start+len(line))
	}
	p.open = append(p.open, b)
	p.options = true
	return true
}

// close ends the innermost open block fenced with as many slashes (and any
// left open inside it). A closing fence that closes nothing is an unknown
// marker: blanked, and counted.
func (p *pymdownBlocks) close(c *cleaned, slashes, start, off int, line string) {
	for k := len(p.open) - 1; k >= 0; k-- {
		if p.open[k].slashes != slashes {
			continue
		}
		for _, b := range p.open[k:] {
			if b.list != nil {
				(*b.list)[b.i].end = off
			}
		}
		p.open = p.open[:k]
		c.blank(markupBlock, start, start+len(line))
		c.counts[markupBlock]-- // counted with its block
		return
	}
	c.blank(markupUnknownBlock, start, start+len(line))
}
