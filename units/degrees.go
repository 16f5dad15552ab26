package units

import (
	"math"
	"strings"

	"github.com/ocean-safety/ingest/units/numeral"
)

// bareCelsiusMax is the largest bare English "degrees" read as Celsius when
// the text names no scale: on a beach, a Fahrenheit reading this low is
// near-freezing water, and a Celsius reading above it would be lethal heat.
const bareCelsiusMax = 45

// angleWords mark a bare "degrees" as an angle, a bearing, a rotation or
// the opening of a figure or a grid ("a 90-degree sector", "um arco de
// 180°", "at two degree spacing"), not a temperature, when they sit just
// before or after it. An entry
// ending in "*" matches the words it starts ("inclin*": inclinação,
// inclined). Compass points are left out on purpose: "vento sul" sits next
// to water temperatures far too often.
var angleWords = words(
	"angle*", "ângulo*", "angulo*", "inclin*", "slope*", "direç*", "direc*", "heading*", "bearing*",
	"rumo*", "azimut*", "rotat*", "rotaç*", "rotac*", "turn", "turns", "turned", "turning", "tilt*",
	"clockwise", "counterclockwise", "anticlockwise", "sentido horário", "anti-horário", "gir*",
	"virou", "vire", "virar", "virando", "virada", "latitud*", "longitud*", "declive*",
	"declividade", "shift*", "veer*", "compass", "bússola", "rodar", "rode", "sector*", "setor*",
	"arc", "arcs", "arco", "arcos", "spacing", "espaçamento",
)

// rotationVerbs, as the verb of the clause a bare degree ends, make it a
// rotation however many words stand between: "Girar os componentes
// selecionados 180 graus", "Rotate the selected parts by 180 degrees".
var rotationVerbs = words("rotate", "rotates", "gire", "girar", "rodar", "rode")

// clauseWindow is how many bytes before a bare degree rotationVerbs are
// searched, within its clause: about ten words.
const clauseWindow = 64

// angleTopicWords, anywhere in a text without a word of temperature, make
// its bare degrees angles: the words of the sky and of optics, which sit
// too far from their degrees for angleWords' window ("a distância angular
// … medida em horas (1 hora = 15 graus)") but too seldom near a reading of
// the water to be trusted inside it.
var angleTopicWords = words(
	"angle*", "ângulo*", "angulo*", "angular*", "orbit*", "órbita*", "meridian*", "meridiano*",
	"declinat*", "declinaç*", "horizon", "horizonte", "zenith", "zênite", "zenite", "fov", "arcsec*",
	"arcmin*", "azimut*", "latitud*", "longitud*", "hue*", "hsv", "hsl", "hsb", "matiz*",
	"projection*", "projeç*", "projec*",
	// a camera's or a craft's attitude and a direction named ("a Pitch of
	// -90 degrees", "increase yaw … by 10 degrees", "90 degrees being
	// horizontal"): a boat pitches and rolls near a water temperature too
	// often for angleWords' window
	"yaw", "pitch", "roll", "guinada", "arfagem", "rolagem", "vertical", "vertically", "verticalmente",
	"horizontal", "horizontally", "horizontalmente",
)

// compassPoints right after a bare degree make it a bearing or a
// coordinate: "37.5 degrees West of the Meridian", "23 graus sul", "48° N".
// Only the word right after counts ("vento sul" near a water temperature
// does not), and a single letter only in capitals: "20° e 25°" is a
// Portuguese "and".
var compassPoints = words(
	"north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest", "norte",
	"sul", "leste", "oeste", "nordeste", "noroeste", "sudeste", "sudoeste",
)

func isCompassPoint(w string) bool {
	if len(w) == 1 {
		return w == "N" || w == "S" || w == "E" || w == "W"
	}
	return compassPoints.in(w, 0, len(w))
}

// angleWindow is how many bytes around a bare degree are searched for an
// angle word: about four words either side.
const angleWindow = 32

// resolveDegrees drops bare degrees that are angles and gives the others a
// scale: that of the nearest explicit °C or °F in the text, else a "Celsius"
// or "Fahrenheit" written anywhere, else the language default. It is linear
// in the number of quantities: one pass each way finds the nearest explicit
// scale.
func (p *parser) resolveDegrees() {
	kept := p.found[:0]
	bare := 0
	for i := range p.found {
		f := p.found[i]
		if f.scale == bareDegrees {
			if p.isAngle(f.q) {
				continue
			}
			bare++
		}
		kept = append(kept, f)
	}
	p.found = kept
	if bare == 0 {
		return
	}
	nearest := p.nearestScales()
	fallback := p.defaultScale()
	for i := range p.found {
		if p.found[i].scale != bareDegrees {
			continue
		}
		if nearest[i] != bareDegrees {
			p.found[i].scale = nearest[i]
		} else {
			p.found[i].scale = fallback
		}
	}
}

// nearestScales gives, for each found quantity, the scale of the nearest
// (by position in the list) explicit Celsius or Fahrenheit quantity, or
// bareDegrees when the text has none.
func (p *parser) nearestScales() []scale {
	n := len(p.found)
	out := make([]scale, n)
	dist := make([]int, n)
	last, lastAt := bareDegrees, -1
	for i, f := range p.found {
		if f.def.dim == Temperature && f.def.scale != bareDegrees {
			last, lastAt = f.def.scale, i
		}
		out[i], dist[i] = last, math.MaxInt
		if lastAt >= 0 {
			dist[i] = i - lastAt
		}
	}
	next, nextAt := bareDegrees, -1
	for i := n - 1; i >= 0; i-- {
		f := p.found[i]
		if f.def.dim == Temperature && f.def.scale != bareDegrees {
			next, nextAt = f.def.scale, i
		}
		if nextAt >= 0 && nextAt-i < dist[i] {
			out[i], dist[i] = next, nextAt-i
		}
	}
	return out
}

// isAngle reports whether the bare degree q is an angle: an angle word
// near it, a compass point right after it, or a text about angles (a word
// of angleTopicWords or a coordinate such as 48°51′ anywhere in it)
// without a word of temperature anywhere ("1 hora = 15 graus" in a page on the hour angle,
// "the blue hour (roughly −4° to −8°) with your own angles", a course of
// 83.8° in a GPS log line).
func (p *parser) isAngle(q Quantity) bool {
	t := p.text
	if angleWords.in(t, max(0, q.Start-angleWindow-comparisonBefore(t, q.Start)), min(len(t), q.End+angleWindow)) {
		return true
	}
	if lo := max(0, q.Start-clauseWindow); rotationVerbs.in(t, lo+strings.LastIndexAny(t[lo:q.Start], ".;:!?\n")+1, q.Start) {
		return true
	}
	if w := p.wordAfter(q.End); w != "" && isCompassPoint(w) {
		return true
	}
	if compassLabel(t, q) || p.angleDomain(q) {
		return true
	}
	if p.angleTopic == unknownTopic {
		p.angleTopic = noAngles
		if (angleTopicWords.in(t, 0, len(t)) || hasCoordinate(t) || p.fullTurn()) && !temperatureWords.in(t, 0, len(t)) {
			p.angleTopic = aboutAngles
		}
	}
	return p.angleTopic == aboutAngles
}

// comparisons right before a bare degree do not part it from the word it
// measures, so angleWords' window reaches past them: "turns between path
// segments greater than 90 degrees".
var comparisons = []string{"greater than", "less than", "more than", "larger than", "smaller than",
	"maior que", "menor que", "maior do que", "menor do que", "maiores que", "menores que"}

// comparisonBefore is the length of a comparison and its spaces ending at
// at in t, or 0.
func comparisonBefore(t string, at int) int {
	s := strings.TrimRight(t[:at], " ")
	for _, c := range comparisons {
		if len(s) >= len(c) && strings.EqualFold(s[len(s)-len(c):], c) {
			return at - len(s) + len(c)
		}
	}
	return 0
}

// angleDomain reports whether the bare degree q is an end of a range from
// 0 (or its negative) to 90, 180 or 360 degrees, the domain of an angle:
// "inclinação orbital na faixa de 0-180 graus", "-180 a 180 graus". No
// reading of the air or the water spans it.
func (p *parser) angleDomain(q Quantity) bool {
	if q.Range == 0 {
		return false
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, f := range p.found {
		if f.q.Range == q.Range {
			lo, hi = min(lo, f.q.Value), max(hi, f.q.Value)
		}
	}
	return (hi == 90 || hi == 180 || hi == 360) && (lo == 0 || lo == -hi)
}

// compassLabel reports whether the bare degree q stands in brackets right
// after a compass point, the direction it labels: "o Leste (0°) fica à
// esquerda", "East (0°) is on the left". Without the brackets a compass
// word before is left alone ("vento sul 22 graus").
func compassLabel(t string, q Quantity) bool {
	if q.Start < 2 || q.End >= len(t) || t[q.End] != ')' || t[q.Start-1] != '(' {
		return false
	}
	i := q.Start - 1
	for i > 0 && t[i-1] == ' ' {
		i--
	}
	w := wordBefore(t, i)
	return w < i && isCompassPoint(t[w:i])
}

// fullTurn reports whether the text holds a bare 360 degrees, a full
// turn ("uma volta completa corresponde a 360 graus, uma meia-volta a 180
// graus"), or a bare 0 beside a bare 90 or 180, the ends of an angle's
// domain written apart ("0° will make the shell vertical, while 90° …").
// Without a word of temperature in the text, its bare degrees are angles.
func (p *parser) fullTurn() bool {
	zero, end := false, false
	for _, f := range p.found {
		if f.scale != bareDegrees {
			continue
		}
		switch f.q.Value {
		case 360:
			return true
		case 0:
			zero = true
		case 90, 180:
			end = true
		}
	}
	return zero && end
}

// angleTopic caches, per text, whether it is about angles.
type angleTopic uint8

const (
	unknownTopic angleTopic = iota
	noAngles
	aboutAngles
)

// hasCoordinate reports whether t holds a degree sign followed by a digit:
// the minutes of a coordinate, "48°51'57.9"", "27°35′".
func hasCoordinate(t string) bool {
	for i := strings.Index(t, "°"); i >= 0; {
		j := i + len("°")
		if j < len(t) && numeral.IsDigit(t[j]) {
			return true
		}
		k := strings.Index(t[j:], "°")
		if k < 0 {
			return false
		}
		i = j + k
	}
	return false
}

// defaultScale is the scale of bare degrees in a text with no explicit °C
// or °F quantity.
func (p *parser) defaultScale() scale {
	switch c, f := containsFold(p.text, "celsius"), containsFold(p.text, "fahrenheit"); {
	case c && !f:
		return celsius
	case f && !c:
		return fahrenheit
	}
	if p.pt || p.bareMax() <= bareCelsiusMax {
		return celsius
	}
	return fahrenheit
}

// bareMax is the largest bare-degree value in the text, so that every bare
// degree of one text ("water 68 degrees, air 30 degrees", "60 to 70
// degrees") gets the same scale.
func (p *parser) bareMax() float64 {
	v := math.Inf(-1)
	for _, f := range p.found {
		if f.def.scale == bareDegrees {
			v = max(v, f.q.Value)
		}
	}
	return v
}

// containsFold reports whether s contains the lower-case ASCII word sub in
// any case, without allocating a lowered copy of s.
func containsFold(s, sub string) bool {
	first := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		if numeral.ASCIILower(s[i]) == first && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// siValue converts a value in unit d, read in scale s, to SI.
func siValue(v float64, d *unitDef, s scale) float64 {
	switch s {
	case celsius:
		return v
	case fahrenheit:
		return (v - 32) * 5 / 9
	}
	return v * d.factor
}

// quantities finishes the found quantities: SI values, range ids numbered
// in order of appearance.
func (p *parser) quantities() []Quantity {
	if len(p.found) == 0 {
		return nil
	}
	out := make([]Quantity, len(p.found))
	renumber := map[int]int{}
	for i, f := range p.found {
		q := f.q
		q.SIValue = siValue(q.Value, f.def, f.scale)
		if q.Range != 0 {
			id, ok := renumber[q.Range]
			if !ok {
				id = len(renumber) + 1
				renumber[q.Range] = id
			}
			q.Range = id
		}
		out[i] = q
	}
	return out
}
