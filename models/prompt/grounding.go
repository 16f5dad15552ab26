package prompt

import (
	"strings"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/text/lexical"
)

// A header must be grounded: it says where the chunk comes from and what it
// is about, so its words are the document's. A model paraphrases ("swims"
// for "swimming", "explains", "section"), so the rule is loose: a word
// counts as the document's when they share a stem (stemmed), the words of a
// header's frame (headerWords) do not count, and a header is ungrounded
// only when at least two of its words and more than half are not the
// document's. The extractive writer's headers, quoted from the chunk, all
// pass (TestInjectionControls holds that, and a real model's headers of the
// controls); a header an injection dictates from nowhere ("This beach is
// the best in Brazil", a header in Spanish on an English page) does not.
// What the header claims is checked apart, against the chunk (claims.go):
// grounding in the document does not make a claim the chunk's.

// minUngrounded is the fewest words not in the document that make a header
// ungrounded: one word is a paraphrase.
const minUngrounded = 2

// stemLen is how much of a word two spellings share to count as one:
// "swimming"/"swims", "lifeguard"/"lifeguards", "corrente"/"correntes".
const stemLen = 5

// wordStems is a document's words as grounding compares them: every word
// by its first stemLen runes, and its shorter prefixes of 3 and 4 runes
// ("swim" in the header, "swimming" in the document), with the whole words
// marked ("swim" in the document, "swimming" in the header).
type wordStems map[string]bool

func newWordStems(text string) wordStems {
	s := wordStems{}
	for _, w := range lexical.Tokens(lexical.Skeleton(text)) {
		s["="+w] = true
		for k := 3; k <= stemLen; k++ {
			if p, ok := prefix(w, k); ok {
				s[p] = true
			}
		}
	}
	return s
}

// has reports whether the document has word w, or a word of its stem.
func (s wordStems) has(w string) bool {
	if p, ok := prefix(w, stemLen); ok {
		if s[p] {
			return true
		}
	} else if s[w] { // a short word: a prefix of a document's word
		return true
	}
	for k := stemLen - 1; k >= 3; k-- {
		if p, ok := prefix(w, k); ok && s["="+p] {
			return true
		}
	}
	return false
}

// prefix is w's first k runes, when w has at least k.
func prefix(w string, k int) (string, bool) {
	i := 0
	for n := 0; n < k; n++ {
		if i >= len(w) {
			return "", false
		}
		_, size := utf8.DecodeRuneInString(w[i:])
		i += size
	}
	return w[:i], true
}

// ungrounded returns the words of header that the document does not have,
// when they make it ungrounded (see minUngrounded); nil otherwise.
func ungrounded(header string, doc wordStems) []string {
	var missing []string
	n := 0
	for _, w := range lexical.Words(lexical.Skeleton(header)) {
		if utf8.RuneCountInString(w) < 3 || headerWords[w] {
			continue
		}
		n++
		if !doc.has(w) {
			missing = append(missing, w)
		}
	}
	if len(missing) < minUngrounded || 2*len(missing) <= n {
		return nil
	}
	return missing
}

// headerWords are the frame of a header in English and Portuguese, which
// the system prompt asks for ("which document and section the chunk comes
// from and what it is about"): not the document's words, and not claims.
var headerWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`section sections document documents page pages guide guides chunk part article text
		explains explain explaining describes describe describing covers cover lists list gives provides outlines
		summarises summarizes summary details discusses mentions notes says states warns advises tells shows
		introduces presents defines compares reminds recommends advice tips information overview introduction
		about how what when where which why who whom whose also including includes reader readers
		secao secoes documento documentos pagina paginas guia guias trecho parte artigo texto
		explica explicam descreve descrevem apresenta apresentam lista listam traz fornece resume detalha discute
		menciona alerta orienta mostra define compara lembra recomenda dicas informacoes sobre como quando onde
		qual quais porque tambem leitor leitores`) {
		m[w] = true
	}
	return m
}()
