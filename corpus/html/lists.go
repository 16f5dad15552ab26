package html

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/ocean-safety/ingest/schema"
)

// Lists, quotes and disclosures: the elements whose words are read whole
// under a marker or a title.

func (w *walker) openList(i int, t token) {
	w.stack[i].roles |= roleList | roleNest
	w.nested(t.start)
	f := listFrame{at: i, ordered: t.tag == atom.Ol, dl: t.tag == atom.Dl, next: 1}
	if n, err := strconv.Atoi(strings.TrimSpace(attrOf(t, "start"))); err == nil && n >= 0 && n < 1e6 {
		f.next = n
	}
	if w.agg < 0 && w.list == 0 {
		w.lists++
		w.list, f.top = w.lists, true
	}
	w.frames = append(w.frames, f)
}

func (w *walker) closeList() {
	f := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	if f.top {
		w.list, w.lastDT = 0, false
	}
}

// openItem starts a list item: at the top, a block of its own; inside an
// item (a nested list), its words. An item of a list shows its marker, "- "
// or "3. ", as a Markdown item does; a term and its definitions show none.
// It reports whether it showed the start tag.
func (w *walker) openItem(i int, t token) bool {
	marker := ""
	if t.tag == atom.Li {
		marker = "- "
		if n := len(w.frames); n > 0 && w.frames[n-1].ordered {
			f := &w.frames[n-1]
			if v, err := strconv.Atoi(strings.TrimSpace(attrOf(t, "value"))); err == nil && v >= 0 && v < 1e6 {
				f.next = v
			}
			marker = strconv.Itoa(f.next) + ". "
			f.next++
		}
	}
	if w.agg >= 0 {
		if marker == "" {
			return false
		}
		depth := 0
		for _, f := range w.frames {
			if f.at > w.agg {
				depth++
			}
		}
		words := marker
		switch {
		case w.v.w == w.v.line:
			words = strings.Repeat("  ", depth) + marker // a nested item on its own line, indented
		case w.v.b[w.v.w-1] != ' ':
			words = " " + marker
		}
		if s, e := w.v.synth(words, t.start, t.end); e > s {
			w.extend(s+len(words)-len(strings.TrimLeft(words, " ")), e-1)
		}
		return true
	}
	if w.list == 0 {
		w.lists++
		w.list = w.lists
	}
	if t.tag != atom.Dd || !w.lastDT {
		w.items++
	}
	w.lastDT = t.tag == atom.Dt
	w.agg, w.itemList, w.item = i, w.list, w.items
	w.stack[i].roles |= roleBlock
	w.begin(pending{el: schema.ElementListItem, split: true, list: w.list, item: w.items})
	if marker == "" {
		return false
	}
	if s, e := w.v.synth(marker, t.start, t.end); e > s {
		w.extend(s, e-1) // the marker's space is not the block's last byte
	}
	return true
}

func (w *walker) openQuote(i int) {
	w.stack[i].roles |= roleNest
	w.nested(w.stack[i].start)
	if w.agg < 0 {
		w.agg = i
		w.stack[i].roles |= roleBlock
		w.begin(pending{el: schema.ElementParagraph, split: true, quote: true})
	}
}

// nested counts a list or quote opened at off against limits.max_depth.
func (w *walker) nested(off int) {
	if w.nest++; w.nest > w.limits.MaxDepth {
		w.refuse(off, "too-deep", fmt.Sprintf("lists and quotes nested %d deep, over limits.max_depth (%d)", w.nest, w.limits.MaxDepth))
	}
}

// summaryLevel is the level of a disclosure's summary as a heading: under
// every heading, and closed with its <details>.
const summaryLevel = 7

// openSummary reads a disclosure's summary ("History", "Show the
// options") as the heading of what the disclosure holds, which it titles:
// a section until the <details> closes, not a fragment of a chunk.
func (w *walker) openSummary(i int) {
	d := w.nearest("details")
	if w.agg >= 0 || d < 0 {
		return
	}
	w.stack[d].roles |= roleDetails
	w.agg = i
	w.stack[i].roles |= roleBlock
	w.begin(pending{el: schema.ElementSectionHeading, level: summaryLevel})
}
