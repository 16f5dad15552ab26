package prompt

import (
	"sync"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// DocPrep is what every chunk of a document needs for its prompt and its
// answer's checks, computed once a document rather than once a chunk: the
// body with instruction-like paragraphs withheld, the fence code, and the
// document's side of the evidence. Finding instruction-like paragraphs
// scans the whole document with regular expressions; per chunk, it was
// most of a run's CPU with a model server.
type DocPrep struct {
	once     sync.Once
	Body     string     // the body, instruction-like paragraphs withheld
	code     string     // the fences' name
	evidence string     // the document folded, one space between words, instructions blanked
	injected [][]string // tokens of each instruction-like paragraph
	title    string
	stems    wordStems // the words of the title and the text, instructions blanked
	spans    [][2]int  // the document's instruction-like paragraphs, in its text
}

// prepCacheSize bounds the documents kept: the enrich stream works on a
// few documents at once, in corpus order.
const prepCacheSize = 64

// PrepCache keeps the preparations of the documents being enriched.
type PrepCache struct {
	mu    sync.Mutex
	m     map[prepKey]*DocPrep
	order []prepKey
}

type prepKey struct{ path, version, title string }

// Get returns doc's preparation, made once however many chunks ask.
func (pc *PrepCache) Get(doc schema.Document) *DocPrep {
	k := prepKey{doc.Path, doc.Version, doc.Title}
	pc.mu.Lock()
	if pc.m == nil {
		pc.m = map[prepKey]*DocPrep{}
	}
	p, ok := pc.m[k]
	if !ok {
		p = &DocPrep{}
		pc.m[k] = p
		pc.order = append(pc.order, k)
		if len(pc.order) > prepCacheSize {
			delete(pc.m, pc.order[0])
			pc.order = pc.order[1:]
		}
	}
	pc.mu.Unlock()
	p.once.Do(func() { p.prepare(doc) })
	return p
}

// prepare finds the document's instruction-like paragraphs once, and
// withholds, blanks and quotes them from that.
func (p *DocPrep) prepare(doc schema.Document) {
	p.spans = InstructionSpans(doc.Text)
	bodyStart := min(doc.BodyStart, len(doc.Text))
	p.Body = withheldAt(doc.Text[bodyStart:], within(p.spans, bodyStart))
	p.code = fenceCode(doc.Title + doc.Text) // the chunk is part of the document's text
	title := doc.Title
	if detect(title) {
		title = ""
	}
	trusted := title + "\n\n" + blankedAt(doc.Text, p.spans)
	p.evidence = flat(trusted)
	p.title, p.stems = title, newWordStems(trusted)
	for _, s := range p.spans {
		p.injected = append(p.injected, lexical.Tokens(doc.Text[s[0]:s[1]]))
	}
	if title != doc.Title {
		p.injected = append(p.injected, lexical.Tokens(doc.Title))
	}
}

// Instructions reports whether the document's text from start to end (a
// chunk's bytes) overlaps a paragraph that reads as instructions to a
// model. The chunk's own text may not show it: a format reads markup out
// of a chunk ("<span>Ig</span>nore" is "Ig nore"), and the paragraph is
// read with it.
func (p *DocPrep) Instructions(start, end int) bool {
	for _, s := range p.spans {
		if start < s[1] && s[0] < end {
			return true
		}
	}
	return false
}
