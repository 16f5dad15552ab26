package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/stages"
)

// exitStatus names each exit code in a run's summary.
var exitStatus = map[int]string{exitOK: "ok", exitPartial: "partial", exitFailed: "failed", exitUsage: "usage", exitInterrupted: "interrupted"}

// runSummary is `index --json` and `merge --json` (README.md, "Machine
// output").
type runSummary = console.RunSummary

// newRunSummary is the --json summary of a run that ended with err.
func newRunSummary(ctx context.Context, res *stages.Result, err error) runSummary {
	code, msg := exitCode(ctx, err), ""
	if err != nil && !errors.Is(err, errPartial) {
		msg = err.Error()
	}
	return console.NewRunSummary(res, code, exitStatus[code], msg)
}

// logFlags are --log-level and --log-format.
func logFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "log-level", Value: "warn", Sources: cli.EnvVars("INGEST_LOG_LEVEL"), Usage: "log what the run does at debug, info, warn or error (to stderr)", Validator: func(s string) error {
			var l slog.Level
			return l.UnmarshalText([]byte(s))
		}},
		&cli.StringFlag{Name: "log-format", Value: "text", Sources: cli.EnvVars("INGEST_LOG_FORMAT"), Usage: "text, or json for a log collector", Validator: func(s string) error {
			if s != "text" && s != "json" {
				return fmt.Errorf("--log-format %q: want text or json", s)
			}
			return nil
		}},
	}
}

// newLogger is the run's logger: to stderr (through the progress display,
// which keeps log lines above its bars), at --log-level, as --log-format.
func newLogger(cmd *cli.Command, rep *console.Reporter) *slog.Logger {
	var w io.Writer = cmd.Root().ErrWriter
	if rep != nil {
		w = rep
	}
	return console.NewLogger(w, cmd.String("log-level"), cmd.String("log-format"))
}
