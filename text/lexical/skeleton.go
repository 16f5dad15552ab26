package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Skeleton is text as a reader sees it, for finding a phrase however it
// was spelled to slip past a matcher: compatibility forms read as their
// letters (NFKC: fullwidth "Ｉ", mathematical "𝐈", ligatures), invisible
// format characters dropped (zero-width spaces and joiners, soft hyphens,
// bidirectional controls), Unicode tag characters read as the ASCII they
// hide, Cyrillic and Greek letters that look Latin read as Latin (the
// confusables Unicode's TR 39 lists that pass for English and Portuguese
// letters), then folded (Fold). Detection only: it maps many texts to one,
// and what is stored or shown stays as written.
func Skeleton(text string) string {
	ascii := true
	for i := 0; i < len(text) && ascii; i++ {
		ascii = text[i] < utf8.RuneSelf
	}
	if ascii {
		return Fold(text)
	}
	var b strings.Builder
	b.Grow(len(text))
	for _, r := range norm.NFKC.String(text) {
		switch {
		case r >= 0xE0020 && r <= 0xE007E: // a tag character: the ASCII it stands for
			b.WriteRune(r - 0xE0000)
		case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r):
		default:
			if l, ok := lookalikes[r]; ok {
				r = l
			}
			b.WriteRune(r)
		}
	}
	return Fold(b.String())
}

// lookalikes are the Cyrillic, Greek and other letters that a reader takes
// for a Latin one, as the Latin letter they pass for.
var lookalikes = func() map[rune]rune {
	m := map[rune]rune{}
	for _, pairs := range []string{
		// Cyrillic
		"АAВBЕEЅSІIЈJКKМMНHОOРPСCТTХXУYҮYԚQԜWӀIаaеeѕsіiјjоoрpсcхxуyүyԁdһhԛqԝwӏl",
		// Greek
		"ΑAΒBΕEΖZΗHΙIΚKΜMΝNΟOΡPΤTΥYΧXαaιiκkνvοoρpτtυuχxϲcϳj",
		// Latin letters of other alphabets, Armenian
		"ıiɩiɑaɡgʟLօoսuհh",
	} {
		rs := []rune(pairs)
		for i := 0; i+1 < len(rs); i += 2 {
			m[rs[i]] = rs[i+1]
		}
	}
	return m
}()
