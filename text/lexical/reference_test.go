package lexical

import (
	"hash/fnv"
	"math"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// The first, string-keyed version of Fold, Words and the built-in embedder,
// kept as the reference the fast ones must equal bit for bit: vectors in
// snapshots are reused under the embedder's name, so the name promises the
// same numbers.

func refFold(text string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	folded, _, err := transform.String(t, strings.ToLower(text))
	if err != nil {
		return strings.ToLower(text)
	}
	return folded
}

func refWords(text string) []string {
	fields := strings.FieldsFunc(refFold(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := fields[:0]
	for _, w := range fields {
		if !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

func refVector(text string, dims int) []float32 {
	counts := map[string]float64{}
	for _, w := range refWords(text) {
		counts["w:"+w] += wordWeight
		rs := []rune("<" + w + ">")
		for i := 0; i+3 <= len(rs); i++ {
			counts["g:"+string(rs[i:i+3])] += trigramWeight
		}
	}
	feats := make([]string, 0, len(counts))
	for f := range counts {
		feats = append(feats, f)
	}
	sort.Strings(feats)
	v := make([]float64, dims)
	for _, f := range feats {
		tf := counts[f]
		h := fnv.New64a()
		h.Write([]byte(f))
		x := h.Sum64()
		w := 1 + math.Log(tf)
		if tf < 1 {
			w = tf
		}
		if x>>63 == 1 {
			w = -w
		}
		v[x%uint64(dims)] += w
	}
	var norm2 float64
	for _, x := range v {
		norm2 += x * x
	}
	out := make([]float32, dims)
	if norm2 == 0 {
		return out
	}
	inv := 1 / math.Sqrt(norm2)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out
}

// refApproxTokens is the first ApproxTokens.Count, rune by rune through the
// unicode package: token counts are stored, so the fast one must agree.
func refApproxTokens(s string) int {
	n, word := 0, 0
	flush := func() {
		if word > 0 {
			n += (word + 3) / 4
			word = 0
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word++
		case unicode.IsSpace(r):
			flush()
		default:
			flush()
			n++
		}
	}
	flush()
	return n
}
