package search

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
	"github.com/ocean-safety/ingest/text/lexicon"
)

// Translation says where a question's words find their translations, so a
// question reaches the chunks of the snapshot's other language: a
// Portuguese question the English page that alone answers it.
type Translation struct {
	// Learn learns translations from the snapshot's own translated pages
	// (lexicon.Align, lexicon.Learn) when it is loaded. Its chunks are the
	// parallel text, so the snapshot needs nothing more (every snapshot
	// already published, a merge of shards, has it) and what is learned is
	// in the stems BM25 reads today. It costs a load 0.19 s on the otel
	// docs (13,185 chunks, 0.45 s without); learned at index time it would
	// be a file in every snapshot, through the run, the merge and verify,
	// to save that.
	Learn bool
	// Dictionary adds a dictionary's translations (lexicon.OpenFreeDict);
	// nil for none.
	Dictionary *lexicon.Lexicon
}

// translatedWeight is what a chunk in a language the question is not in
// counts for against one in the question's (query.weight), in both legs,
// when the question's own language reaches the BM25 floor (reaches): a
// chunk reached through translation must match better to rank above one
// matching the question's own words, so a question keeps its own
// language's answer first. On the dev half of the otel golden set (hybrid
// answer@5, cross-lingual / en / pt): 0.5 0.14/0.74/0.85, 0.6 0.29/0.74/
// 0.85, 0.7 0.29/0.74/0.85 (answer@1 0.29 against 0), 0.8 0.29/0.68/0.85;
// at 1 a pt question lost its pt page to the en original it translates
// (pt 0.62). Again with reaches, the whole half (hybrid answer@1 /
// answer@5, with FreeDict): 0.5 0.564/0.821, 0.6 and 0.7 0.564/0.846, 0.8
// 0.538/0.846, 0.9 0.513/0.795: it stays.
const translatedWeight = 0.7

// Translate sets how the index translates questions, learning from its
// chunks when tr.Learn says so. It returns how many terms the lexicon
// translates.
func (ix *Index) Translate(tr Translation) int {
	var learned *lexicon.Lexicon
	if tr.Learn {
		ps := make([]lexicon.Passage, len(ix.entries))
		for i, e := range ix.entries {
			ps[i] = lexicon.Passage{Doc: e.docPath, Lang: e.lang, Section: e.sectionPath, Text: e.text}
		}
		learned = lexicon.Learn(lexicon.Align(ps))
	}
	ix.learned, ix.dictionary = learned, tr.Dictionary
	return learned.Len() + tr.Dictionary.Len()
}

// translate is term's translations from one language into another: the
// snapshot's own, learned from its translated pages, when it has some (they
// are its domain's: "trecho" is a span there, not a stretch of road), else
// the dictionary's (lookup, which backs off a stem neither translates).
// Function words are not translated, nor translated to.
func (ix *Index) translate(from, to schema.Lang, w lexical.Stemmed) []lexicon.Translation {
	if lexicon.FunctionWord(from, lexical.Fold(w.Word)) {
		return nil
	}
	ts := ix.lookup(from, to, w.Term)
	out := ts[:0:0]
	for _, t := range ts {
		if !lexicon.FunctionWord(to, t.Word) {
			out = append(out, t)
		}
	}
	return out
}

// Stem backoff: a verb's Snowball stem changes with its ending
// (Portuguese "renomear" → renom, "renomeio" → renomei; "executar",
// "executo"), and a dictionary's headwords and a corpus's aligned pages
// hold few of a verb's forms, so a question's conjugated verb often finds
// no translation its infinitive has. A term nothing translates is looked up
// again by its stem cut by a rune, then two (the suffixes the stemmer
// leaves on a conjugated form are that short), never below
// minBackoffRunes, so short stems, where a cut would reach another word,
// are left alone: stem backoff, as cross-language retrieval without a
// morphological analyser does it. A term that translates as it is is never
// cut.
const (
	maxBackoffRunes = 2
	minBackoffRunes = 5
)

// lookup is term's translations from one language into another: the
// learned lexicon's when it has some, else the dictionary's; else those of
// the term cut back (maxBackoffRunes, minBackoffRunes).
func (ix *Index) lookup(from, to schema.Lang, term string) []lexicon.Translation {
	r := []rune(term)
	for cut := 0; cut <= maxBackoffRunes && (cut == 0 || len(r)-cut >= minBackoffRunes); cut++ {
		t := string(r[:len(r)-cut])
		if ts := ix.learned.Translate(from, to, t); len(ts) > 0 {
			return ts
		}
		if ts := ix.dictionary.Translate(from, to, t); len(ts) > 0 {
			return ts
		}
	}
	return nil
}

// alt is a term a leg matches for one of the question's words, and what a
// match counts for.
type alt struct {
	term   string
	weight float64
}

// qterm is one of the question's words as a leg reads it: its own term in
// the leg's language, weight 1, and, when the question is in another
// language, the terms it translates to. A chunk scores the best of them
// (a word counts once, however many translations it has).
type qterm []alt

// query is a question's BM25 terms in each language the index holds: a
// chunk is matched by the question read with its own language's rules, so a
// Portuguese question still meets the English page that names the same
// command, and by the question's words translated into it.
type query struct {
	from       schema.Lang // the question's language (lexicon.Guess), "" when unsure
	translated bool        // the index translates questions (Translate)
	legs       map[schema.Lang][]qterm
	texts      map[schema.Lang]string // what the vector leg embeds for each language's chunks
	// reach says the question's own language has a chunk worth keeping
	// first (reaches); without one the other language's chunks count in
	// full (weight). Search sets it once BM25 has scored the candidates.
	reach bool
}

// weight is what a leg's scores count for: when the question is
// translated and its own language reaches the BM25 floor (reach), a
// language it is not in counts translatedWeight, so a chunk in the
// question's own language that matches as well ranks first. Below the
// floor it has no answer to keep first, and the weight would only push the
// other language's answer below its noise: every language counts in full,
// as without translation, where the other language's leg holds only the
// question's own words (names, commands).
func (q query) weight(lang schema.Lang) float64 {
	if q.from == "" || lang == q.from || !q.translated || !q.reach {
		return 1
	}
	return translatedWeight
}

// reaches reports whether among the BM25 hits rel (unweighted: a chunk's
// BM25 relevance, relevance.go) a chunk of lang is at least floor, the
// snapshot's BM25 floor: one a BM25 search would not call "nothing
// relevant". With no floor (0) any chunk of lang BM25 ranks reaches it.
func reaches(lang schema.Lang, entries []entry, rel []hit, floor float64) bool {
	for _, h := range rel {
		if entries[h.i].lang == lang && h.score >= floor {
			return true
		}
	}
	return false
}

func (ix *Index) query(text string) query {
	q := query{from: lexicon.Guess(text), translated: ix.learned.Len()+ix.dictionary.Len() > 0,
		legs: map[schema.Lang][]qterm{}, texts: map[schema.Lang]string{}}
	stems := map[schema.Lang][]lexical.Stemmed{}
	for lang := range ix.stemmers {
		stems[lang] = lexical.NewStemmer(lang).Stemmed(text)
	}
	for lang, own := range stems {
		seen := map[string]bool{}
		var words []string // the question in lang's words, for the vector leg
		for i, w := range own {
			word := lexical.Fold(w.Word)
			if q.from != "" && lexicon.FunctionWord(q.from, word) {
				continue // "qual", "how": what the question asks, not what it is about
			}
			qt := qterm{{w.Term, 1}}
			for other, theirs := range stems {
				if other == lang || q.from != "" && q.from != other || len(theirs) != len(own) {
					continue
				}
				ts := ix.translate(other, lang, theirs[i])
				for _, t := range ts {
					if t.Term != w.Term {
						qt = append(qt, alt{t.Term, t.Weight / ts[0].Weight})
					}
				}
				if len(ts) > 0 && ts[0].Term != w.Term {
					word = ts[0].Word
				}
			}
			if !seen[w.Term] {
				seen[w.Term] = true
				q.legs[lang] = append(q.legs[lang], qt)
				words = append(words, word)
			}
		}
		q.texts[lang] = text
		if q.from != "" {
			q.texts[lang] = strings.Join(words, " ")
		}
	}
	return q
}

// embed is the question's vector in each language: its own in its own
// language, its words translated (query.texts) in the others; a text is
// embedded once, whatever the languages that read it.
func (ix *Index) embed(ctx context.Context, q query) (map[schema.Lang][]float32, error) {
	if ix.embedder == nil {
		return nil, ix.noEmbed
	}
	langs := slices.Sorted(maps.Keys(q.texts))
	var texts []string
	for _, lang := range langs {
		if !slices.Contains(texts, q.texts[lang]) {
			texts = append(texts, q.texts[lang])
		}
	}
	vs, err := ix.embedder.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed question: %w", err)
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("embed question: got %d vectors, want %d", len(vs), len(texts))
	}
	out := make(map[schema.Lang][]float32, len(langs))
	for _, lang := range langs {
		out[lang] = vs[slices.Index(texts, q.texts[lang])]
	}
	return out, nil
}
