package main

import (
	"io"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/forgive"
)

// What a command tells its user on stderr goes through say; how a run's
// progress, diagnostics and summary look is package console's.

// logFormatJSON reports whether the command line asks for JSON logs:
// --log-format json (or =json), else INGEST_LOG_FORMAT=json. Decided before
// the flags are parsed, so even a usage error is a record.
func logFormatJSON(args []string) bool {
	if v, ok := forgive.Value(args, "log-format"); ok {
		return v == "json"
	}
	return os.Getenv("INGEST_LOG_FORMAT") == "json"
}

// jsonLogs reports whether cmd writes JSON records to stderr.
func jsonLogs(cmd *cli.Command) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == "log-format" {
				return cmd.String("log-format") == "json"
			}
		}
	}
	return false
}

// tell is what cmd tells its user on stderr: lines, or with --log-format
// json, records.
func tell(cmd *cli.Command) console.Teller {
	return console.Teller{W: cmd.Root().ErrWriter, JSON: jsonLogs(cmd)}
}

// progressMode decides how progress is shown on w (console.ProgressMode,
// given $TERM).
func progressMode(w io.Writer, quiet bool) string {
	return console.ProgressMode(w, quiet, os.Getenv("TERM"))
}

// noteUnmatchedIgnores says which --ignore codes matched no diagnostic of
// the run, with the nearest code it had: a typo must not pass for a quiet
// corpus.
func noteUnmatchedIgnores(t console.Teller, codes, have []string) {
	for _, u := range forgive.Unmatched(codes, have) {
		t.UnmatchedIgnore(u.Given, u.Nearest)
	}
}
