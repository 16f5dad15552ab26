package numeral

import (
	"math"
	"strconv"
	"strings"
)

// Number is a run of digits and separators read as one value.
type Number struct {
	Start, End int  // span of the digits (a sign is not included)
	decimal    int  // offset of the decimal separator, -1 when none
	thousands  byte // the separator used for thousands, 0 when none
}

// maxGroups bounds how many separated groups a number may have, so a long
// run like an IP address or a serial number is dropped quickly.
const maxGroups = 6

// ScanNumber reads the number starting at text[i], which must be a digit.
// pt selects the Portuguese reading of a lone separator followed by three
// digits ("1.000" is a thousand, "1,500" is one and a half); English reads
// them the other way round. It returns the position after the number and
// ok=false for a run that is no number in either convention ("1.2.3");
// n.End is then still the end of the run, so the caller can skip it whole.
func ScanNumber(text string, i int, pt bool) (n Number, ok bool) {
	n = Number{Start: i, decimal: -1}
	j := skipDigits(text, i)
	firstLen := j - i
	var seps [maxGroups]byte
	var lens [maxGroups]int
	var offs [maxGroups]int
	g := 0
	for j+1 < len(text) && (text[j] == '.' || text[j] == ',') && IsDigit(text[j+1]) {
		k := skipDigits(text, j+1)
		if g < maxGroups {
			seps[g], lens[g], offs[g] = text[j], k-j-1, j
		}
		g++
		j = k
	}
	n.End = j
	switch {
	case g > maxGroups:
		return n, false
	case g == 0:
		return n, true
	case g == 1:
		tsep := byte(',')
		if pt {
			tsep = '.'
		}
		if lens[0] == 3 && seps[0] == tsep && firstLen <= 3 {
			n.thousands = tsep
		} else {
			n.decimal = offs[0]
		}
		return n, true
	}
	// Several groups: every separator but possibly the last is a thousands
	// separator of one kind, with groups of exactly three digits.
	last := g - 1
	tsep := seps[0]
	if firstLen > 3 {
		return n, false
	}
	for k := 0; k < last; k++ {
		if seps[k] != tsep || lens[k] != 3 {
			return n, false
		}
	}
	n.thousands = tsep
	switch {
	case seps[last] != tsep:
		n.decimal = offs[last]
	case lens[last] != 3:
		return n, false
	}
	return n, true
}

func skipDigits(text string, i int) int {
	for i < len(text) && IsDigit(text[i]) {
		i++
	}
	return i
}

// IsDigit reports whether b is an ASCII digit.
func IsDigit(b byte) bool { return b >= '0' && b <= '9' }

// Value computes the number's value in text. Up to 15 digits it builds an exact
// integer mantissa and divides once by an exact power of ten, which rounds
// correctly; longer runs fall back to strconv.
func (n Number) Value(text string) float64 {
	var mant uint64
	digits, frac := 0, 0
	for i := n.Start; i < n.End; i++ {
		c := text[i]
		if !IsDigit(c) {
			continue
		}
		mant = mant*10 + uint64(c-'0')
		digits++
		if n.decimal >= 0 && i > n.decimal {
			frac++
		}
	}
	if digits <= 15 && frac <= 22 {
		return float64(mant) / math.Pow10(frac)
	}
	var b strings.Builder
	for i := n.Start; i < n.End; i++ {
		switch c := text[i]; {
		case IsDigit(c):
			b.WriteByte(c)
		case i == n.decimal:
			b.WriteByte('.')
		}
	}
	v, err := strconv.ParseFloat(b.String(), 64)
	if err != nil {
		return math.Inf(1) // only on overflow, which no unit survives
	}
	return v
}
