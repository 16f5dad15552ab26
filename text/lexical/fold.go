package lexical

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Folding is the one definition of a folded text: lower case (strings.ToLower),
// then NFD, nonspacing marks (Mn) removed, then NFC. foldSlow applies it
// literally; foldTable holds its result rune by rune for the runes where
// folding one rune at a time gives the same text, so the hot paths (the
// embedder, Fold on ordinary prose) skip the Unicode transform. Anything
// else (a rune beyond the table, a mark that is not Mn, invalid UTF-8) takes
// foldSlow, so the two paths never disagree (TestFoldMatchesTransform).

// foldTableSize covers Latin, Greek, Cyrillic, the other alphabets of the
// Basic Multilingual Plane's first rows, punctuation and common symbols;
// CJK, Hangul and emoji take the slow path.
const foldTableSize = 0x3000

// foldEntry is a rune's folded form: the rune in the low 21 bits, and flags.
type foldEntry uint32

const (
	foldWord       foldEntry = 1 << 29 // the folded rune is a letter or a digit: part of a word
	foldDrop       foldEntry = 1 << 30 // the rune folds to nothing (a nonspacing mark)
	foldNeighbours foldEntry = 1 << 31 // folding this rune depends on its neighbours, or gives several runes
	foldRune       foldEntry = 1<<21 - 1
)

// foldTable is built on first use: about 12,000 runes through the
// transform, a few milliseconds that a run pays once.
var foldTable = sync.OnceValue(func() *[foldTableSize]foldEntry {
	var t [foldTableSize]foldEntry
	for r := range rune(foldTableSize) {
		t[r] = foldOne(r)
	}
	return &t
})

// foldOne decides whether r folds on its own, and to what. A text made of
// such runes folds rune by rune because (1) lower-casing is per rune, (2)
// every combining mark in r's decomposition is Mn, so canonical reordering
// only moves marks that are removed anyway, and (3) what remains starts
// with a rune that cannot combine with anything before it, so NFC never
// composes across two runes.
func foldOne(r rune) foldEntry {
	if r >= 0xD800 && r <= 0xDFFF {
		return foldNeighbours // surrogates are not runes of valid UTF-8
	}
	var kept []rune
	for _, d := range norm.NFD.String(string(unicode.ToLower(r))) {
		if unicode.Is(unicode.Mn, d) {
			continue
		}
		if norm.NFD.PropertiesString(string(d)).CCC() != 0 {
			return foldNeighbours
		}
		kept = append(kept, d)
	}
	if len(kept) > 0 && !norm.NFC.PropertiesString(string(kept[0])).BoundaryBefore() {
		return foldNeighbours
	}
	f := foldSlow(string(r))
	switch n := utf8.RuneCountInString(f); {
	case n == 0:
		return foldDrop
	case n > 1 || f != norm.NFC.String(string(kept)):
		return foldNeighbours
	}
	fr, _ := utf8.DecodeRuneInString(f)
	e := foldEntry(fr)
	if unicode.IsLetter(fr) || unicode.IsDigit(fr) {
		e |= foldWord
	}
	return e
}

// folders hold accent-folding transformers: a transform.Chain keeps state,
// so each caller needs its own, and building one per text was a tenth of an
// offline run. transform.String resets the one it is given.
var folders = sync.Pool{New: func() any {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}}

// foldSlow is the definition of folding, applied literally.
func foldSlow(text string) string {
	lower := strings.ToLower(text)
	t := folders.Get().(transform.Transformer)
	defer folders.Put(t)
	folded, _, err := transform.String(t, lower)
	if err != nil {
		return lower
	}
	return folded
}

// foldFast folds text through foldTable; ok is false when text needs
// foldSlow.
func foldFast(text string) (folded string, ok bool) {
	i := 0
	for i < len(text) && text[i] < utf8.RuneSelf {
		i++
	}
	if i == len(text) {
		return strings.ToLower(text), true // ASCII: no allocation when already lower case
	}
	t := foldTable()
	var b strings.Builder
	b.Grow(len(text))
	for _, c := range []byte(text[:i]) {
		b.WriteByte(byte(t[c] & foldRune))
	}
	for _, r := range text[i:] {
		if r >= foldTableSize { // utf8.RuneError included: invalid UTF-8 or a real U+FFFD
			return "", false
		}
		e := t[r]
		switch {
		case e&foldNeighbours != 0:
			return "", false
		case e&foldDrop != 0:
		default:
			b.WriteRune(rune(e & foldRune))
		}
	}
	return b.String(), true
}
