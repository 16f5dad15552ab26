package thresholds

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/units"
)

// Subjects a threshold can constrain: stable snake_case ids, the same in
// both languages.
const (
	SubjectWaveHeight       = "wave_height"
	SubjectWindSpeed        = "wind_speed"
	SubjectWaterTemperature = "water_temperature"
	SubjectAirTemperature   = "air_temperature"
	SubjectWaterDepth       = "water_depth"
	SubjectDistance         = "distance"
	SubjectCurrentSpeed     = "current_speed"
	// SubjectWetsuitThickness is the thickness of the suit a bound asks for
	// ("a wetsuit of at least 3 mm", "roupa de neoprene de 3 mm"): gear, not
	// the sea, so it is never compared with a depth or a wave. A length
	// takes its subject from the noun it measures, never from its unit.
	SubjectWetsuitThickness = "wetsuit_thickness"
	SubjectUnknown          = "unknown" // no keyword matched; still reported
)

// vocabulary maps a lower-case word to the subject it names, per dimension:
// "mar" is the waves for a length and the water for a temperature.
var vocabulary = map[units.Dimension]map[string]string{
	units.Length: words(
		SubjectWaveHeight, "wave", "waves", "surf", "swell", "swells", "breaker", "breakers",
		"onda", "ondas", "ondulação", "ondulações", "mar", "vagas", "arrebentação",
	).add(
		SubjectWaterDepth, "depth", "deep", "deeper", "depths", "shallow", "waist", "chest", "knee",
		"water", "profundidade", "profundo", "profunda", "fundo", "raso", "rasa", "cintura",
		"peito", "joelho", "joelhos", "água",
	).add(
		SubjectDistance, "distance", "shore", "shoreline", "beach", "offshore", "flags", "swim",
		"rocks", "rock", "distância", "praia", "costa", "areia", "margem", "beira", "bandeiras",
		"afaste", "nade", "pedras", "pedra", "rochas", "costão",
	).add(
		SubjectWetsuitThickness, "wetsuit", "wetsuits", "neoprene", "thick", "thickness", "espessura",
		"borracha", "neoprene's",
	),
	units.Speed: words(
		SubjectWindSpeed, "wind", "winds", "windy", "gust", "gusts", "breeze",
		"vento", "ventos", "rajada", "rajadas", "ventania", "brisa",
	).add(
		SubjectCurrentSpeed, "current", "currents", "rip", "rips",
		"correnteza", "correntezas", "corrente", "correntes", "repuxo",
	),
	units.Temperature: words(
		// a suit is worn for the water: "below 18 °C, wear a 3 mm wetsuit"
		SubjectWaterTemperature, "water", "sea", "ocean", "água", "mar", "oceano", "wetsuit", "wetsuits",
		"neoprene",
	).add(
		SubjectAirTemperature, "air", "heat", "hot", "sun", "day", "days", "ar", "calor", "sol",
		"térmica", "dia", "dias",
	),
}

// breakKinds name a surf break when "break" follows: "shore break",
// "beach break", "reef break", "point break".
var breakKinds = map[string]bool{"shore": true, "beach": true, "reef": true, "point": true}

type wordSet map[string]string

func words(subject string, ws ...string) wordSet { return wordSet{}.add(subject, ws...) }

func (s wordSet) add(subject string, ws ...string) wordSet {
	for _, w := range ws {
		s[w] = subject
	}
	return s
}

// subjectFor returns the subject named nearest to text[start:end] within
// the sentence text[sStart:sEnd], among those that fit the dimension.
// Nearness counts the words in between, not counting the comparator's own
// words (skipBefore before the quantity, skipAfter after it): in "swell
// greater than 2 m closes the beach" the swell is next to its bound and
// the beach two words away. A tie goes to the word before, where the
// subject of a sentence usually sits in both languages.
func subjectFor(text string, sStart, sEnd, start, end int, dim units.Dimension, skipBefore, skipAfter int) string {
	vocab := vocabulary[dim]
	type hit struct {
		subject string
		pos     int // word index in the sentence
	}
	var hits []hit
	before, n := 0, 0 // words wholly before the quantity; words seen
	prev := ""
	forEachWord(text[sStart:sEnd], func(wStart, wEnd int, w string) {
		wStart, wEnd = wStart+sStart, wEnd+sStart
		if wStart < end && wEnd > start {
			return // a word of the quantity itself ("nós", "metros")
		}
		if wEnd <= start {
			before = n + 1
		}
		if subject, ok := vocab[w]; ok {
			hits = append(hits, hit{subject, n})
		}
		if dim == units.Length && breakKinds[prev] && w == "break" {
			// "shore break", "beach break": a kind of wave, not the shore.
			if k := len(hits) - 1; k >= 0 && hits[k].pos == n-1 {
				hits = hits[:k]
			}
			hits = append(hits, hit{SubjectWaveHeight, n})
		}
		prev = w
		n++
	})
	best, bestDist := SubjectUnknown, -1
	for _, h := range hits {
		var d int
		if h.pos < before {
			d = max(0, before-1-h.pos-skipBefore)
		} else {
			d = max(0, h.pos-before-skipAfter)
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = h.subject, d
		}
	}
	return best
}

// forEachWord calls f with each run of letters in s, lower-cased; hyphens
// split words, so "waist-deep" is "waist" and "deep".
func forEachWord(s string, f func(start, end int, word string)) {
	start := -1
	for i := 0; i <= len(s); {
		r, size := rune(0), 1
		if i < len(s) {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if i < len(s) && unicode.IsLetter(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			f(start, i, strings.ToLower(s[start:i]))
			start = -1
		}
		i += size
	}
}

// forEachWordAt calls f with each run of letters in s, which is already
// lower case, and where it starts: the words as forEachWord cuts them,
// without a copy each.
func forEachWordAt(s string, f func(start int, word string)) {
	start := -1
	for i := 0; i <= len(s); {
		r, size := rune(0), 1
		if i < len(s) {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if i < len(s) && unicode.IsLetter(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			f(start, s[start:i])
			start = -1
		}
		i += size
	}
}
