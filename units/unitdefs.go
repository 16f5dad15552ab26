package units

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/units/numeral"
)

// scale says how a unit's value becomes its SI value.
type scale uint8

const (
	linear      scale = iota // SI = value × factor
	celsius                  // SI = value
	fahrenheit               // SI = (value − 32) × 5/9
	bareDegrees              // Celsius or Fahrenheit, decided from context
)

// rule flags narrow where a spelling counts as a unit.
type rule uint16

const (
	foldCase  rule = 1 << iota // "Metros", "KM/H" as well as "metros", "km/h"
	noHyphen                   // not in the "5-foot" adjective form
	strict                     // "in": only where the preposition cannot be
	enOnly                     // "mi": in Portuguese "2 mi" is two million
	ptOnly                     // "pol": polegadas, not an English word
	tight                      // "C", "F": no hyphen or slash may follow
	prime                      // ′ ″ ' ": glued to digits that no quote opens
	gluedPart                  // "1m75", "6'2"": digits may follow, as a compound's part
)

type unitDef struct {
	spelling string
	dim      Dimension
	factor   float64
	scale    scale
	rules    rule
	// context names the words that make this spelling something else
	// ("a 10 F supercapacitor", "40m users"); see vetoed.
	context context
}

// Exact factors to SI, as the issue states them.
const (
	factorFoot   = 0.3048
	factorInch   = 0.0254
	factorMile   = 1609.344
	factorNautMi = 1852
	factorKnot   = 1852.0 / 3600
	factorKmh    = 1 / 3.6
	factorMph    = 0.44704
	factorYard   = 0.9144
	factorFathom = 1.8288
	factorCenti  = 0.01
	factorMilli  = 0.001
	factorKilo   = 1000
	factorUnity  = 1
)

func lengths(factor float64, r rule, spellings ...string) []unitDef {
	return defs(Length, factor, linear, r, spellings...)
}

func speeds(factor float64, r rule, spellings ...string) []unitDef {
	return defs(Speed, factor, linear, r, spellings...)
}

func temps(s scale, r rule, spellings ...string) []unitDef {
	return defs(Temperature, 1, s, r, spellings...)
}

func defs(d Dimension, factor float64, s scale, r rule, spellings ...string) []unitDef {
	out := make([]unitDef, len(spellings))
	for i, sp := range spellings {
		out[i] = unitDef{spelling: sp, dim: d, factor: factor, scale: s, rules: r}
	}
	return out
}

// unitTable lists every spelling Parse accepts. Symbols are case-sensitive
// where another case means something else ("M" is mega, "Mm" megametre,
// "kN" kilonewton); words fold case.
var unitTable = concat(
	withContext(million, lengths(factorUnity, gluedPart, "m")),
	lengths(factorUnity, foldCase, "metro", "metros", "metre", "metres", "meter", "meters"),
	lengths(factorCenti, foldCase, "cm", "centímetro", "centímetros", "centimetro", "centimetros",
		"centimetre", "centimetres", "centimeter", "centimeters"),
	lengths(factorMilli, 0, "mm"),
	lengths(factorMilli, foldCase, "milímetro", "milímetros", "milimetro", "milimetros",
		"millimetre", "millimetres", "millimeter", "millimeters"),
	lengths(factorKilo, foldCase, "km", "quilômetro", "quilômetros", "quilómetro", "quilómetros",
		"quilometro", "quilometros", "kilômetro", "kilômetros", "kilometro", "kilometros",
		"kilometre", "kilometres", "kilometer", "kilometers"),
	lengths(factorFoot, foldCase, "ft"),
	withContext(body, lengths(factorFoot, foldCase, "foot", "feet", "pé", "pés")),
	lengths(factorFoot, prime|gluedPart, "′", "'", "’"),
	lengths(factorInch, strict|noHyphen, "in"),
	lengths(factorInch, foldCase, "inch", "inches", "polegada", "polegadas"),
	lengths(factorInch, ptOnly|noHyphen, "pol"),
	lengths(factorInch, prime, "″", "\"", "”", "''", "′′"),
	lengths(factorYard, foldCase, "yd", "yds", "yard", "yards", "jarda", "jardas"),
	lengths(factorFathom, foldCase, "fathom", "fathoms", "braça", "braças"),
	withContext(million, lengths(factorMile, enOnly|noHyphen, "mi")),
	lengths(factorMile, foldCase, "mile", "miles", "milha", "milhas"),
	lengths(factorNautMi, foldCase, "nmi", "nautical mile", "nautical miles",
		"milha náutica", "milhas náuticas", "milha nautica", "milhas nauticas",
		"milha marítima", "milhas marítimas"),
	withContext(knotAbbrev, speeds(factorKnot, foldCase, "kn", "kt", "kts")),
	withContext(rope, speeds(factorKnot, foldCase, "knot", "knots", "nó", "nós")),
	speeds(factorKmh, foldCase, "km/h", "km/hr", "kph", "kmh", "km por hora", "km per hour", "km an hour",
		"quilômetros por hora", "quilometros por hora", "kilometres per hour", "kilometers per hour",
		"quilômetro por hora", "quilometro por hora", "kilometre per hour", "kilometer per hour",
		"kilometres an hour", "kilometers an hour"),
	speeds(factorUnity, 0, "m/s"),
	speeds(factorUnity, foldCase, "metros por segundo", "metro por segundo", "metros/segundo",
		"metres per second", "meters per second", "metre per second", "meter per second"),
	speeds(factorMph, foldCase, "mph", "mi/h", "miles per hour", "miles an hour", "milhas por hora",
		"mile per hour", "milha por hora"),
	speeds(factorFoot, foldCase, "ft/s", "feet per second", "foot per second", "ft per second",
		"pés por segundo", "pés/segundo"),
	temps(celsius, 0, "°C", "ºC", "° C", "º C", "°c", "ºc"),
	withContext(coulomb, temps(celsius, tight|noHyphen, "C")),
	temps(celsius, foldCase, "celsius", "celcius", "celsious", "centigrade", "centígrado", "centígrados",
		"centigrado", "centigrados", "graus celsius", "grau celsius", "graus celcius",
		"graus centígrados", "graus centigrados", "grau centígrado", "graus C",
		"degrees celsius", "degree celsius", "degrees celcius", "degrees centigrade", "degrees C", "degree C",
		"degC", "deg C", "deg. C"),
	temps(fahrenheit, 0, "°F", "ºF", "° F", "º F", "°f", "ºf"),
	withContext(farad, temps(fahrenheit, tight|noHyphen, "F")),
	temps(fahrenheit, foldCase, "fahrenheit", "farenheit", "fahrenheight", "farenheight",
		"graus fahrenheit", "graus farenheit", "graus F",
		"degrees fahrenheit", "degree fahrenheit", "degrees farenheit", "degrees F", "degree F",
		"degF", "deg F", "deg. F"),
	temps(bareDegrees, 0, "°"),
	withContext(academic, temps(bareDegrees, foldCase, "degrees", "degree", "graus", "grau")),
	temps(bareDegrees, foldCase, "deg", "degs"),
)

// raceKilometre is the unit of a bare "5k" or "10K" in a race: see
// raceDistance.
var raceKilometre = unitDef{spelling: "k", dim: Length, factor: factorKilo}

// withContext gives the definitions the context whose words veto them.
func withContext(c context, defs []unitDef) []unitDef {
	for i := range defs {
		defs[i].context = c
	}
	return defs
}

func concat(lists ...[]unitDef) []unitDef {
	var out []unitDef
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// unitIndex holds, per first byte, the spellings that may start there,
// longest first, so the first match is the longest ("m/s" before "m").
var unitIndex = buildIndex(unitTable)

func buildIndex(table []unitDef) *[256][]*unitDef {
	var idx [256][]*unitDef
	for i := range table {
		d := &table[i]
		first := d.spelling[0]
		idx[first] = append(idx[first], d)
		if d.rules&foldCase != 0 && first < utf8.RuneSelf {
			for _, b := range []byte{numeral.ASCIILower(first), asciiUpper(first)} {
				if b != first {
					idx[b] = append(idx[b], d)
				}
			}
		}
	}
	for b := range idx {
		l := idx[b]
		for i := 1; i < len(l); i++ { // insertion sort: tiny lists, stable
			for j := i; j > 0 && len(l[j].spelling) > len(l[j-1].spelling); j-- {
				l[j], l[j-1] = l[j-1], l[j]
			}
		}
	}
	return &idx
}

func asciiUpper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

// matchUnit returns the longest unit spelled at text[p:] that ends at a word
// boundary, and the position after it. inchy relaxes where "in" is inches:
// see strictEnd.
func matchUnit(text string, p int, pt bool, inchy bool) (*unitDef, int) {
	if p >= len(text) {
		return nil, p
	}
	for _, d := range unitIndex[text[p]] {
		end := p + len(d.spelling)
		if end > len(text) || len(d.spelling) > 1 && numeral.ASCIILower(text[p+1]) != numeral.ASCIILower(d.spelling[1]) {
			continue
		}
		s := text[p:end]
		if s != d.spelling && (d.rules&foldCase == 0 || !strings.EqualFold(s, d.spelling)) {
			continue
		}
		if d.rules&enOnly != 0 && pt || d.rules&ptOnly != 0 && !pt {
			continue
		}
		if unitEnds(text, end, d, inchy) {
			return d, end
		}
	}
	return nil, p
}

// unitEnds reports whether a unit spelled up to end stands on its own: not
// the start of a longer word ("minutes", "meses", "mil"), of an area ("m²",
// "km2", "km^2") or of a rate we do not know ("m/min", "m/s²").
func unitEnds(text string, end int, d *unitDef, inchy bool) bool {
	if end == len(text) {
		return true
	}
	r, size := utf8.DecodeRuneInString(text[end:])
	switch {
	case numeral.IsDigit(text[end]):
		return d.rules&gluedPart != 0
	case unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' || r == '^':
		return false
	case r == '/' && end+size < len(text) && (numeral.IsASCIILetter(text[end+size]) || text[end+size] >= utf8.RuneSelf):
		return false
	case d.rules&strict != 0:
		return strictEnd(text, end, inchy)
	case d.rules&tight != 0 && (r == '-' || r == '/'):
		return false
	case d.scale == bareDegrees && d.spelling == "°":
		// 27°35′S is a coordinate, not a temperature.
		return r != '\'' && r != '′' && r != '"' && r != '″'
	}
	return true
}

// strictEnd accepts "in" as inches only where the preposition cannot be:
// at the end of the text, before closing punctuation that ends the clause
// (an abbreviating stop too: "11 in.)"),
// before a parenthetical conversion, or before "of" or a word of size ("6
// in of water", "8 in deep"). After a fraction or a compound's feet
// (inchy) it is inches unless the words after it are the preposition's
// object: "the", "a", "his" …
func strictEnd(text string, end int, inchy bool) bool {
	switch text[end] {
	case '.':
		// "in." abbreviated before a closing bracket: "Letter (8.5 × 11 in.)"
		return end+1 == len(text) || isSpace(text[end+1]) || text[end+1] == ')' || text[end+1] == ']'
	case ',', ';', ':', '!', '?', ')', ']':
		return end+1 == len(text) || isSpace(text[end+1])
	case ' ':
		s := end + 1
		if s < len(text) && (text[s] == '(' || text[s] == '[') {
			return true
		}
		w := lowerASCII(text[s:numeral.WordEnd(text, s)])
		if inchFollowers[w] {
			return true
		}
		return inchy && w != "" && !(text[s] >= 'A' && text[s] <= 'Z') && !prepositionObjects[w]
	}
	return false
}

// inchFollowers make "in" inches after any number: the preposition never
// precedes them.
var inchFollowers = map[string]bool{
	"of": true, "deep": true, "high": true, "long": true, "wide": true, "tall": true, "thick": true,
}

// prepositionObjects start what "in" governs as a preposition.
var prepositionObjects = map[string]bool{
	"the": true, "a": true, "an": true, "this": true, "that": true, "these": true, "those": true,
	"his": true, "her": true, "its": true, "my": true, "our": true, "your": true, "their": true,
	"each": true, "every": true, "all": true, "some": true, "any": true, "which": true, "what": true,
	"whose": true, "there": true, "here": true, "it": true, "them": true, "him": true, "me": true,
	"us": true, "front": true, "total": true, "order": true, "case": true, "fact": true, "advance": true,
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }

// lookupUnit finds the definition whose spelling is exactly s (folding case
// where the unit allows it), for units named outside running text.
func lookupUnit(s string, pt bool) *unitDef {
	if s == "" {
		return nil
	}
	for _, d := range unitIndex[s[0]] {
		if s != d.spelling && (d.rules&foldCase == 0 || !strings.EqualFold(s, d.spelling)) {
			continue
		}
		if d.rules&enOnly != 0 && pt || d.rules&ptOnly != 0 && !pt {
			continue
		}
		return d
	}
	return nil
}
