package console

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"time"
)

// With --log-format json a log collector reads stderr: every line is a
// JSON object. What a person reads as lines (diagnostics, the run's
// summary, notes, the error) is then a record of its own, with fields a
// query can use; anything else that reaches stderr (a library's line, a
// flag parser's message) is wrapped into a record by JSONLines, so no line
// is left that a collector cannot parse.

// Records is the logger of what a command tells its user on stderr, as
// JSON: at every level, whatever --log-level says (that filters the run's
// own log, not its output).
func Records(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// JSONLines is stderr with --log-format json: lines that are JSON objects
// pass as they are; any other line becomes {"time", "level": "INFO",
// "msg": line}. A line is written whole, once its newline arrives (or at
// Close).
type JSONLines struct {
	mu      sync.Mutex
	w       io.Writer
	partial []byte
}

// NewJSONLines wraps w.
func NewJSONLines(w io.Writer) *JSONLines { return &JSONLines{w: w} }

func (j *JSONLines) Write(p []byte) (int, error) {
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

func (j *JSONLines) line(line []byte) error {
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
func (j *JSONLines) Close() error {
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
func (j *JSONLines) Unwrap() io.Writer { return j.w }

// NewLogger is a run's logger on w at level (debug, info, warn, error: the
// flag's validator has checked it), as text or, with format json, JSON.
func NewLogger(w io.Writer, level, format string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: l}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
