package main

import (
	"context"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/urfave/cli/v3"
)

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
			return console.Units(cmd.Root().Reader, cmd.Root().Writer, lang, cmd.Bool("json"))
		},
	}
}
