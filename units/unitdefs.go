package units

import (
	"strings"
	"unicode"
	"unicode/utf8"
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
type rule uint8

const (
	foldCase rule = 1 << iota // "Metros", "KM/H" as well as "metros", "km/h"
	noHyphen                  // not in the "5-foot" adjective form
	strict                    // "in": only before the end, punctuation or "("
	enOnly                    // "mi": in Portuguese "2 mi" is two million
	tight                     // "C", "F": no hyphen or letter may follow
)

type unitDef struct {
	spelling string
	dim      Dimension
	factor   float64
	scale    scale
	rules    rule
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
// where another case means something else ("M" is mega, "Mm" megametre);
// words fold case.
var unitTable = concat(
	lengths(factorUnity, 0, "m"),
	lengths(factorUnity, foldCase, "metro", "metros", "metre", "metres", "meter", "meters"),
	lengths(factorCenti, foldCase, "cm", "centímetro", "centímetros", "centimetro", "centimetros",
		"centimetre", "centimetres", "centimeter", "centimeters"),
	lengths(factorMilli, 0, "mm"),
	lengths(factorMilli, foldCase, "milímetro", "milímetros", "milimetro", "milimetros",
		"millimetre", "millimetres", "millimeter", "millimeters"),
	lengths(factorKilo, foldCase, "km", "quilômetro", "quilômetros", "quilómetro", "quilómetros",
		"quilometro", "quilometros", "kilometre", "kilometres", "kilometer", "kilometers"),
	lengths(factorFoot, foldCase, "ft", "foot", "feet", "pé", "pés"),
	lengths(factorInch, strict|noHyphen, "in"),
	lengths(factorInch, foldCase, "inch", "inches", "polegada", "polegadas"),
	lengths(factorMile, enOnly|noHyphen, "mi"),
	lengths(factorMile, foldCase, "mile", "miles", "milha", "milhas"),
	lengths(factorNautMi, foldCase, "nmi", "nautical mile", "nautical miles",
		"milha náutica", "milhas náuticas", "milha nautica", "milhas nauticas",
		"milha marítima", "milhas marítimas"),
	speeds(factorKnot, foldCase, "kn", "kt", "kts", "knot", "knots", "nó", "nós"),
	speeds(factorKmh, foldCase, "km/h", "km/hr", "kph", "km por hora", "km per hour",
		"quilômetros por hora", "quilometros por hora", "kilometres per hour", "kilometers per hour"),
	speeds(factorUnity, 0, "m/s"),
	speeds(factorUnity, foldCase, "metros por segundo", "metro por segundo",
		"metres per second", "meters per second"),
	speeds(factorMph, foldCase, "mph", "miles per hour", "milhas por hora"),
	speeds(factorFoot, foldCase, "ft/s", "feet per second", "foot per second", "ft per second",
		"pés por segundo"),
	temps(celsius, 0, "°C", "ºC", "° C", "º C"),
	temps(celsius, tight|noHyphen, "C"),
	temps(celsius, foldCase, "celsius", "graus celsius", "grau celsius", "degrees celsius",
		"degree celsius", "graus centígrados", "graus C", "degrees C"),
	temps(fahrenheit, 0, "°F", "ºF", "° F", "º F"),
	temps(fahrenheit, tight|noHyphen, "F"),
	temps(fahrenheit, foldCase, "fahrenheit", "graus fahrenheit", "degrees fahrenheit",
		"degree fahrenheit", "graus F", "degrees F"),
	temps(bareDegrees, 0, "°"),
	temps(bareDegrees, foldCase, "degrees", "degree", "graus", "grau"),
)

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
			for _, b := range []byte{asciiLower(first), asciiUpper(first)} {
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

func asciiLower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

func asciiUpper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

// matchUnit returns the longest unit spelled at text[p:] that ends at a word
// boundary, and the position after it.
func matchUnit(text string, p int, pt bool) (*unitDef, int) {
	if p >= len(text) {
		return nil, p
	}
	for _, d := range unitIndex[text[p]] {
		end := p + len(d.spelling)
		if end > len(text) {
			continue
		}
		s := text[p:end]
		if s != d.spelling && (d.rules&foldCase == 0 || !strings.EqualFold(s, d.spelling)) {
			continue
		}
		if d.rules&enOnly != 0 && pt {
			continue
		}
		if unitEnds(text, end, d) {
			return d, end
		}
	}
	return nil, p
}

// unitEnds reports whether a unit spelled up to end stands on its own: not
// the start of a longer word ("minutes", "meses", "mil") nor of an area
// ("m²", "km2").
func unitEnds(text string, end int, d *unitDef) bool {
	if end == len(text) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(text[end:])
	if unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' {
		return false
	}
	switch {
	case d.rules&strict != 0:
		return strictEnd(text, end)
	case d.rules&tight != 0 && (r == '-' || r == '/'):
		return false
	case d.scale == bareDegrees && d.spelling == "°":
		// 27°35′S is a coordinate, not a temperature.
		return r != '\'' && r != '′' && r != '"' && r != '″'
	}
	return true
}

// strictEnd accepts "in" as inches only where the preposition cannot be:
// at the end of the text, before closing punctuation that ends the clause,
// or before a parenthetical conversion.
func strictEnd(text string, end int) bool {
	switch text[end] {
	case '.', ',', ';', ':', '!', '?', ')', ']':
		return end+1 == len(text) || isSpace(text[end+1])
	case ' ':
		return end+1 < len(text) && (text[end+1] == '(' || text[end+1] == '[')
	}
	return false
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
		if d.rules&enOnly != 0 && pt {
			continue
		}
		return d
	}
	return nil
}
