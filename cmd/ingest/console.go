package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v3"
)

// With --log-format json a log collector reads stderr: every line is a
// JSON object. What a person reads as lines (diagnostics, the run's
// summary, notes, the error) is then a record of its own, with fields a
// query can use; anything else that reaches stderr (a library's line, a
// flag parser's message) is wrapped into a record by jsonLines, so no line
// is left that a collector cannot parse.

// logFormatJSON reports whether the command line asks for JSON logs:
// --log-format json (or =json), else INGEST_LOG_FORMAT=json. Decided before
// the flags are parsed, so even a usage error is a record.
func logFormatJSON(args []string) bool {
	for i, a := range args {
		name, v, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "log-format" {
			continue
		}
		if !ok && i+1 < len(args) {
			v = args[i+1]
		}
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

// records is the logger of what a command tells its user on stderr, as
// JSON: at every level, whatever --log-level says (that filters the run's
// own log, not its output).
func records(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// say tells the user one thing on stderr: line for a person, or, with
// --log-format json, a record of msg and attrs at level.
func say(cmd *cli.Command, level slog.Level, line, msg string, attrs ...any) {
	w := cmd.Root().ErrWriter
	if jsonLogs(cmd) {
		records(w).Log(context.Background(), level, msg, attrs...)
		return
	}
	io.WriteString(w, line+"\n")
}

// jsonLines is stderr with --log-format json: lines that are JSON objects
// pass as they are; any other line becomes {"time", "level": "INFO",
// "msg": line}. A line is written whole, once its newline arrives (or at
// Close).
type jsonLines struct {
	mu      sync.Mutex
	w       io.Writer
	partial []byte
}

func newJSONLines(w io.Writer) *jsonLines { return &jsonLines{w: w} }

func (j *jsonLines) Write(p []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.partial = append(j.partial, p...)
	for {
		i := bytes.IndexByte(j.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := j.partial[:i]
		if err := j.line(line); err != nil {
			return 0, err
		}
		j.partial = j.partial[i+1:]
	}
}

func (j *jsonLines) line(line []byte) error {
	if t := bytes.TrimSpace(line); len(t) > 0 && t[0] == '{' && json.Valid(t) {
		_, err := j.w.Write(append(t, '\n'))
		return err
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil // a blank line is no record
	}
	b, _ := json.Marshal(struct {
		Time  string `json:"time"`
		Level string `json:"level"`
		Msg   string `json:"msg"`
	}{time.Now().Format(time.RFC3339Nano), "INFO", string(line)})
	_, err := j.w.Write(append(b, '\n'))
	return err
}

// Close writes what is left of an unfinished line.
func (j *jsonLines) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.partial) == 0 {
		return nil
	}
	err := j.line(j.partial)
	j.partial = nil
	return err
}

// Unwrap returns the writer underneath, for a terminal check.
func (j *jsonLines) Unwrap() io.Writer { return j.w }
