package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

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

func unitsCommand() *cli.Command {
	return &cli.Command{
		Name:  "units",
		Usage: "read one text per line from stdin and print, per line, the quantities found with their SI values",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: `one {"quantities":[…]} object per input line`},
			&cli.StringFlag{Name: "lang", Value: "en", Usage: "en or pt: decimal comma, thousands dot and bare degrees follow it"},
		},
		Action: func(_ context.Context, cmd *cli.Command) error {
			lang := cmd.String("lang")
			if lang != "en" && lang != "pt" {
				return usage("--lang %q: want en or pt", lang)
			}
			in := bufio.NewScanner(cmd.Root().Reader)
			in.Buffer(make([]byte, 64*1024), 16*1024*1024)
			out := bufio.NewWriter(cmd.Root().Writer)
			defer out.Flush()
			enc := json.NewEncoder(out)
			enc.SetEscapeHTML(false)
			for in.Scan() {
				qs := units.Parse(in.Text(), units.Options{Lang: lang})
				if cmd.Bool("json") {
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
		},
	}
}
