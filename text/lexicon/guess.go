package lexicon

import (
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// functionWords are words a question in one language is full of and one in
// the other lacks (words both languages write, "a", "as", "no", are left
// out): what tells a question's language, names and code aside.
var functionWords = map[schema.Lang]map[string]bool{
	schema.LangEN: set(`the an is are was were be been does did how what which who whom whose why when where
		can could should would will shall must i my me we our you your it its this that these those there here
		of to in on at for from by with without about into and or but if not than then get`),
	schema.LangPT: set(`o os um uma uns umas de da dos das em na nas num numa para pra por pelo pela pelos pelas
		com sem que como qual quais quem porque quando onde ser sao foi eram esta estao este esse essa isso
		isto eu meu minha meus minhas voce seu sua seus suas ele ela eles elas nao mais ao aos preciso precisa devo deve devem posso pode podem consigo mesmo
		la lo las los lhe lhes
		e ou mas se tem ha`),
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// Guess returns the language text is written in, by its function words
// (accents folded: "é", "não"), or "" when it has as many of each language
// (a list of names, a command).
func Guess(text string) schema.Lang {
	var n [2]int
	for _, w := range lexical.Tokens(text) {
		if functionWords[schema.LangEN][w] {
			n[0]++
		}
		if functionWords[schema.LangPT][w] {
			n[1]++
		}
	}
	switch {
	case n[0] > n[1]:
		return schema.LangEN
	case n[1] > n[0]:
		return schema.LangPT
	}
	return ""
}

// FunctionWord reports whether word (folded) is one of lang's function
// words: a question's "qual" or "how" is not worth translating.
func FunctionWord(lang schema.Lang, word string) bool { return functionWords[lang][word] }
