package units

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/units/numeral"
)

// A unit spelling after a number is not always a measurement even where
// no context word vetoes it (see vetoed): real text writes "an Intel Xeon
// 8581C", "a timeout of ~60m", "rate(x[5m])", "um meter provider" (a
// Portuguese sentence about an English noun) and "um grau maior de
// sofisticação". The checks here keep such readings out; each was found
// in units/testdata/nothing.jsonl's development half.

// letterTempMax is the largest value a bare letter C or F (no degree
// sign: "25C", "77F") is read as a temperature at: above it the letter
// names a model or a grade ("Xeon 8581C", "Platinum 8252C"). 60 °C and
// 140 °F are past any air or water reading.
var letterTempMax = map[scale]float64{celsius: 60, fahrenheit: 140}

// durationWords right before a glued "m" ("60m", "1m") make it minutes:
// "a timeout of ~60m", "at least 1 minute (1m)", "the scrape interval is
// 15s and the timeout 1m". Only the word right before counts: "swam 40m in
// a minute" is a distance.
var durationWords = words(
	"timeout*", "interval*", "minute*", "duration*", "period*", "ttl", "delay*", "latenc*",
	"retention", "expir*", "wait*", "sleep*", "cron*", "schedul*", "uptime", "scrape*", "poll*",
	"refresh*", "backoff*", "deadline*", "minuto*", "intervalo*", "duração", "duracao", "período",
	"periodo", "espera*", "atraso*", "expira*", "prazo*", "window*", "janela*",
)

// settingVerbs right before a glued "m" make it a value given to a
// program, whose "m" is minutes: "specify 30m to ensure that Nmap doesn't
// waste more than half an hour", as "-t 3m" and "size=512m" are settings.
var settingVerbs = words("specify", "specifies", "specifying", "especifique", "especificar", "especifica")

// cpuWords around a glued "m" make it thousandths of a processor, as
// Kubernetes writes a CPU request: "cpu: 250m", "500m CPU".
var cpuWords = words("cpu*", "vcpu*", "millicore*", "millicpu*", "core", "cores", "núcleo*", "nucleo*")

// temperatureWords near "one degree", "um grau" written in words make it
// a temperature; without one, "um" is the article ("um grau muito maior de
// sofisticação", "one degree of freedom").
var temperatureWords = words(
	"temperat*", "water", "air", "sea", "ocean", "cold*", "warm*", "hot", "heat*", "cool*",
	"chill*", "freez*", "rose", "risen", "rise*", "drop*", "fell", "fall*", "climb*", "thermomet*",
	"weather", "forecast*", "celsius", "fahrenheit", "fever", "água", "agua", "ar", "mar",
	"oceano", "frio*", "fria*", "quente*", "calor*", "esquent*", "esfri*", "gelad*", "congel*",
	"subiu", "sobe", "subir", "caiu", "cai", "cair", "baix*", "termômetro*", "termometro*",
	"previsão", "previsao", "clima", "mínima", "máxima", "minima", "maxima", "febre",
)

// unitNameWords near "one foot", "um pé" in words make it the unit named,
// not one measured: "Um pé (do inglês foot, plural feet) é a unidade de
// comprimento", "a palavra inch … um duodécimo de um pé".
var unitNameWords = words("unit", "units", "unidade", "unidades", "word", "palavra", "plural", "singular",
	"abbreviation*", "abreviatura*", "symbol", "símbolo", "simbolo")

// filmWords near "35mm" make it the film format a focal length is
// compared with, not a length: "35mm equivalent focal length", "assuming a
// 35mm film camera", "distância focal equivalente a 35mm". A lens's own
// focal length ("a 10.5 mm fisheye") is a length.
var filmWords = words("film", "films", "filme", "filmes", "equivalent", "equivalente")

// foreignUnitWords are unit words of the other language: after a number in
// words they are not a measurement ("um meter provider" in Portuguese). A
// digit takes either ("a 2 meter swell" in a Portuguese page quoting one).
var foreignUnitWords = map[bool]map[string]bool{
	true: { // in Portuguese text, English words
		"meter": true, "meters": true, "metre": true, "metres": true, "foot": true, "feet": true,
		"inch": true, "inches": true, "yard": true, "yards": true, "mile": true, "miles": true,
		"fathom": true, "fathoms": true, "knot": true, "knots": true, "degree": true, "degrees": true,
		"centimetre": true, "centimetres": true, "centimeter": true, "centimeters": true,
		"millimetre": true, "millimetres": true, "millimeter": true, "millimeters": true,
		"kilometre": true, "kilometres": true, "kilometer": true, "kilometers": true,
	},
	false: { // in English text, Portuguese words
		"metro": true, "metros": true, "pé": true, "pés": true, "polegada": true, "polegadas": true,
		"jarda": true, "jardas": true, "milha": true, "milhas": true, "braça": true, "braças": true,
		"nó": true, "nós": true, "grau": true, "graus": true,
	},
}

// implausible reports whether the unit d spelled at text[uStart:uEnd]
// after numeral n reads as something other than a measurement.
func (p *parser) implausible(n numeral.Numeral, d *unitDef, uStart, uEnd int) bool {
	t := p.text
	switch {
	case d.rules&tight != 0 && n.Value > letterTempMax[d.scale]:
		return true // "Xeon 8581C"
	case d.spelling == "m" && uStart == n.End:
		// "[5m]" is a PromQL range; a glued "m" after or before a word of
		// time, minutes ("timeout 1m", "a 5m window"); beside a word of
		// processors, millicores ("cpu: 250m", "500m CPU"); after an option,
		// "=" or "specify", a setting ("-t 3m", "size=512m", "move=-61m",
		// "specify 30m"); among other
		// glued times ("30s, then 5m"), minutes.
		return n.Start > 0 && t[n.Start-1] == '[' && uEnd < len(t) && t[uEnd] == ']' ||
			p.beside(durationWords, n.Start, uEnd) || p.beside(cpuWords, n.Start, uEnd) ||
			optionBefore(t, n.Start) || settingVerbs.in(t, wordBefore(t, n.Start), n.Start) ||
			gluedTimeNear(t, n.Start, uEnd)
	case d.spelling == "m" && secondsAfter(t, uEnd):
		return true // "5 m 30 s", "2m 10s": minutes and seconds
	case denominator(t, n.Start):
		return true // "1200 / 3937 meters": the length is the quotient
	case d.dim == Length && perVolume(t, n.Start):
		return true // "liters per 100 kilometers", "l/100 km": a consumption
	case d.scale == bareDegrees && (p.nounAfter(uEnd) == "freedom" || p.nounAfter(uEnd) == "liberdade"):
		return true // "6 degrees of freedom", "6 graus de liberdade"
	case d.spelling == "°" && p.pt && uStart == n.End && n.Integer && p.ordinal(n.Start, uEnd):
		return true // "para o 4° ponto", "2° Divisão": an ordinal written with a degree sign
	case d.factor == factorMilli && d.dim == Length && n.Value == 35 && p.near(n.Start, uEnd, filmWords):
		return true // "35mm equivalent focal length": the film format
	case n.Words && foreignUnitWords[p.pt][lowerASCII(t[uStart:uEnd])]:
		return true // "um meter provider"
	case n.Words && n.Value == 1 && p.near(n.Start, uEnd, unitNameWords):
		return true // "Um pé (do inglês foot) é a unidade de comprimento": a unit named
	case n.Words && n.Value == 1 && d.scale == bareDegrees && d.spelling != "°":
		return !p.near(n.Start, uEnd, temperatureWords) // "um grau maior de sofisticação"
	}
	return false
}

// beside reports whether a word of l stands right before the number at
// start or right after the unit ending at end, past a "de" or "of":
// "timeout 1m", "a 5m window", "500m de CPU", "janela de 5m".
func (p *parser) beside(l *wordList, start, end int) bool {
	t := p.text
	b := wordBefore(t, start)
	if w := lowerASCII(labelBefore(t, start)); w == "de" || w == "of" {
		b = wordBefore(t, b)
	}
	after := p.nounAfter(end)
	return l.in(t, b, start) || l.in(after, 0, len(after))
}

// denominator reports whether the number at t[start:] divides the number
// before it, a slash with spaces between: "survey feet (1200 / 3937 meters
// = 1 foot)". The quotient is the length, not the denominator's value; a
// glued "12/72 inch" is numeral's to read.
func denominator(t string, start int) bool {
	i := start
	for i > 0 && t[i-1] == ' ' {
		i--
	}
	if i == start || i == 0 || t[i-1] != '/' {
		return false
	}
	i--
	j := i
	for j > 0 && t[j-1] == ' ' {
		j--
	}
	return j < i && j > 0 && numeral.IsDigit(t[j-1])
}

// volumeWords before "per", "por" or "/" make the length after them a
// consumption's denominator: "liters per 100 kilometers", "l/100 km",
// "litros aos 100 quilômetros".
var volumeWords = words("l", "liter*", "litre*", "litro*", "gallon*", "galão", "galões")

// perVolume reports whether the number at t[start:] follows a volume and
// "per", "por", "aos" or "/".
func perVolume(t string, start int) bool {
	i := start
	if i > 0 && t[i-1] == '/' {
		i--
	} else {
		switch w := lowerASCII(labelBefore(t, start)); w {
		case "per", "por", "aos":
			i = wordBefore(t, start)
		default:
			return false
		}
	}
	b := wordBefore(t, i)
	return b < i && volumeWords.in(t, b, i)
}

// ordinal reports whether the Portuguese "4°" at t[start:end] is an
// ordinal written with a degree sign rather than "º": after an article
// ("para o 4° ponto", "do 2° lado") or opening the text before a capital
// ("2° Divisão do tracejamento"). "A água a 20° ontem" stays a reading.
func (p *parser) ordinal(start, end int) bool {
	switch lowerASCII(labelBefore(p.text, start)) {
	case "o", "os", "do", "dos", "no", "nos", "ao", "pelo", "da", "na", "pela":
		return true
	}
	w := p.wordAfter(end)
	return strings.TrimSpace(p.text[:start]) == "" &&
		w != "" && unicode.IsUpper([]rune(w)[0]) && !temperatureWords.in(w, 0, len(w))
}

// wordBefore is where the word before pos starts, past the spaces and the
// few marks that may sit between it and a number ("timeout (~60m", "minute
// (1m)"), or pos when there is none.
func wordBefore(t string, pos int) int {
	i := pos
	for k := 0; i > 0 && k < 4; k++ {
		r, size := utf8.DecodeLastRuneInString(t[:i])
		if unicode.IsLetter(r) || !unicode.IsSpace(r) && !strings.ContainsRune("([~=:≈", r) {
			break
		}
		i -= size
	}
	end := i
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(t[:i])
		if !unicode.IsLetter(r) {
			break
		}
		i -= size
	}
	if i == end {
		return pos
	}
	return i
}

// optionBefore reports whether the number at t[start:] is a setting's
// value: right after "=" (past a sign), or after a command-line option
// ("-t 3m", "--size 10m").
func optionBefore(t string, start int) bool {
	i := start
	if i > 0 && (t[i-1] == '-' || t[i-1] == '+') {
		i--
	}
	if i > 0 && t[i-1] == '=' {
		return true
	}
	j := i
	for j > 0 && t[j-1] == ' ' {
		j--
	}
	if j == i {
		return false
	}
	k := j
	for k > 0 && t[k-1] != ' ' && t[k-1] != '\n' && t[k-1] != '\t' {
		k--
	}
	opt := strings.TrimLeft(t[k:j], "-")
	if len(t[k:j])-len(opt) == 0 || opt == "" {
		return false
	}
	for _, r := range opt {
		if !unicode.IsLetter(r) && r != '-' {
			return false
		}
	}
	return true
}

// gluedTimes are the suffixes of a time glued to its number: "30s", "2h",
// "500ms", "1d". Near them, a glued "m" is minutes.
var gluedTimes = map[string]bool{"s": true, "h": true, "ms": true, "d": true, "min": true, "sec": true, "hr": true}

// gluedTimeNear reports whether a number glued to a time suffix ("30s",
// not the "3s" of "mp3s") sits within contextWindow bytes of t[start:end].
func gluedTimeNear(t string, start, end int) bool {
	lo, hi := max(0, start-contextWindow), min(len(t), end+contextWindow)
	for i := lo; i < hi; i++ {
		if i >= start && i < end || !numeral.IsDigit(t[i]) || i > 0 && (numeral.IsDigit(t[i-1]) || numeral.IsASCIILetter(t[i-1])) {
			continue
		}
		j := i
		for j < len(t) && numeral.IsDigit(t[j]) {
			j++
		}
		if e := numeral.WordEnd(t, j); e > j && gluedTimes[lowerASCII(t[j:e])] {
			return true
		}
		i = j
	}
	return false
}

// secondsAfter reports whether seconds follow the unit ending at end, a
// number and "s" or "sec": "5 m 30 s" is a time, minutes and seconds.
func secondsAfter(t string, end int) bool {
	i := end + numeral.SpaceWidth(t, end)
	j := i
	for j < len(t) && numeral.IsDigit(t[j]) {
		j++
	}
	if j == i {
		return false
	}
	j += numeral.SpaceWidth(t, j)
	w := lowerASCII(t[j:numeral.WordEnd(t, j)])
	return w == "s" || w == "sec" || w == "secs" || w == "seg"
}
