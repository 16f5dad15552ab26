package units

import (
	"math"
	"strconv"
)

// Dimension is the physical dimension of a quantity.
type Dimension string

// The dimensions Parse recognises.
const (
	Length      Dimension = "length"
	Speed       Dimension = "speed"
	Temperature Dimension = "temperature"
)

// SI units the canonical values are expressed in.
const (
	SIMetre         = "m"
	SIMetrePerSec   = "m/s"
	SIDegreeCelsius = "degC"
)

// siUnitOf maps a dimension to the unit its SIValue is expressed in.
func siUnitOf(d Dimension) string {
	switch d {
	case Length:
		return SIMetre
	case Speed:
		return SIMetrePerSec
	case Temperature:
		return SIDegreeCelsius
	}
	return ""
}

// DimensionOf returns the dimension whose canonical unit is siUnit, or "".
func DimensionOf(siUnit string) Dimension {
	switch siUnit {
	case SIMetre:
		return Length
	case SIMetrePerSec:
		return Speed
	case SIDegreeCelsius:
		return Temperature
	}
	return ""
}

// Quantity is one measurement found in a text.
type Quantity struct {
	Surface   string // the text as written, e.g. "1,5 m", "20 nós"
	Start     int    // byte offset of Surface in the input, inclusive
	End       int    // byte offset of Surface in the input, exclusive
	Value     float64
	Unit      string // as written, e.g. "nós", "ft", "°C"
	Dimension Dimension
	SIValue   float64 // length in m, speed in m/s, temperature in degC
	SIUnit    string  // "m", "m/s" or "degC"
	// Range is shared by both ends of a range ("2–3 m"), counting from 1 in
	// the order ranges appear; 0 when the quantity is not part of one.
	Range int
	// EquivalentOf is the index, in the slice Parse returned, of the quantity
	// this one restates ("3 ft (0.9 m)"); -1 when it restates none.
	EquivalentOf int
}

// Options say how to read a text.
type Options struct {
	// Lang is "pt" for Brazilian Portuguese; anything else is English. It
	// decides how "1.000" and "1,500" are read and the scale of a bare
	// "degrees".
	Lang string
	// HeaderUnit is the unit of a table column ("°C" from "Água (°C)"),
	// given to a cell that is only a number or a range of numbers.
	HeaderUnit string
}

// Canonical formats q's SI value with its unit, e.g. "1.52 m", "10.29 m/s",
// "18 degC": the form appended to embedder input as "5 ft [1.52 m]".
func Canonical(q Quantity) string { return FormatSI(q.SIValue, q.SIUnit) }

// FormatSI formats an SI value with its unit the way Canonical does. Values
// of 1 or more keep two decimals (a centimetre, a hundredth of a knot, which
// is finer than any source states); smaller ones keep three significant
// digits so that "1 in" does not collapse to "0.03 m".
func FormatSI(v float64, unit string) string {
	s := formatNumber(v)
	if unit == "" {
		return s
	}
	return s + " " + unit
}

func formatNumber(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	a := math.Abs(v)
	var r float64
	switch {
	case a == 0:
		return "0"
	case a >= 1:
		r = math.Round(v*100) / 100
	default:
		exp := math.Floor(math.Log10(a))
		scale := math.Pow(10, 2-exp)
		r = math.Round(v*scale) / scale
	}
	if r == 0 {
		return "0" // never "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}
