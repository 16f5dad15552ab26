package console

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ocean-safety/ingest/units"
)

// unitsQuantity is one quantity of `ingest units --json`.
type unitsQuantity struct {
	Surface   string  `json:"surface"`
	Value     float64 `json:"value"`
	Unit      string  `json:"unit"`
	Dimension string  `json:"dimension"`
	SIValue   float64 `json:"si_value"`
	SIUnit    string  `json:"si_unit"`
	Start     int     `json:"start"`
	End       int     `json:"end"`
}

// Units reads one text per line from r and writes, a line each, the
// quantities found in it (units.Parse in lang) with their SI values: as
// "surface → canonical (dimension)" lines, or with asJSON one
// {"quantities":[…]} object a line.
func Units(r io.Reader, w io.Writer, lang string, asJSON bool) error {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 64*1024), 16*1024*1024)
	out := bufio.NewWriter(w)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		qs := units.Parse(in.Text(), units.Options{Lang: lang})
		if asJSON {
			line := struct {
				Quantities []unitsQuantity `json:"quantities"`
			}{Quantities: []unitsQuantity{}}
			for _, q := range qs {
				line.Quantities = append(line.Quantities, unitsQuantity{q.Surface, q.Value, q.Unit, string(q.Dimension), q.SIValue, q.SIUnit, q.Start, q.End})
			}
			if err := enc.Encode(line); err != nil {
				return err
			}
			continue
		}
		parts := make([]string, len(qs))
		for i, q := range qs {
			parts[i] = fmt.Sprintf("%s → %s (%s)", q.Surface, units.Canonical(q), q.Dimension)
		}
		fmt.Fprintln(out, strings.Join(parts, "; "))
	}
	return in.Err()
}
