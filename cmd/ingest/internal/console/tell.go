package console

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages"
)

// Teller tells the user what a command did, on stderr: a line for a
// person, or with JSON (--log-format json) a record a thing, with fields a
// query can use.
type Teller struct {
	W    io.Writer
	JSON bool
}

// Say tells one thing: line for a person, or a record of msg and attrs at
// level.
func (t Teller) Say(level slog.Level, line, msg string, attrs ...any) {
	if t.JSON {
		Records(t.W).Log(context.Background(), level, msg, attrs...)
		return
	}
	io.WriteString(t.W, line+"\n")
}

// PruneFailed warns that old snapshots could not be removed: the new one
// is published either way.
func (t Teller) PruneFailed(err error) {
	t.Say(slog.LevelWarn, fmt.Sprintf("warning: %v", err), "prune failed", "error", err.Error())
}

// Cleaned says which leftovers of interrupted runs were removed.
func (t Teller) Cleaned(paths []string) {
	for _, c := range paths {
		t.Say(slog.LevelInfo, fmt.Sprintf("removed %s, left by an interrupted run", c), "removed a leftover of an interrupted run", "path", c)
	}
}

// Quarantined says which published snapshots failed verification and
// where they were moved, so nobody wonders where a folder went.
func (t Teller) Quarantined(pub publish.Published) {
	for _, q := range pub.Quarantined {
		problems := q.Problems
		if len(problems) > 3 {
			problems = append(problems[:3:3], fmt.Sprintf("and %d more", len(q.Problems)-3))
		}
		t.Say(slog.LevelWarn, fmt.Sprintf("warning: %s failed verification (%s): replaced by this run's snapshot and moved aside to %s for inspection",
			q.Name, strings.Join(problems, "; "), q.Path), "a published snapshot failed verification: moved aside", "name", q.Name, "problems", q.Problems, "moved_to", q.Path)
	}
}

// Latest says where latest points now; with noteReused, that it is a
// snapshot already published, which verifies.
func (t Teller) Latest(pub publish.Published, noteReused bool) {
	note := ""
	if noteReused && pub.Reused {
		note = " (identical to a snapshot already there, which verifies)"
	}
	t.Say(slog.LevelInfo, fmt.Sprintf("latest → %s%s", pub.Path, note), "latest moved", "path", pub.Path, "reused", pub.Reused)
}

// Summary tells the run's outcome: the summary a person reads, or one
// record holding s, what --json prints.
func (t Teller) Summary(res *stages.Result, s RunSummary) {
	if t.JSON {
		Records(t.W).Info("run summary", "status", s.Status, "exit_code", s.ExitCode, "summary", s)
		return
	}
	PrintSummary(t.W, res)
}

// DiffReport says where the --diff report went, or, as a warning, why
// there is none: the snapshot is published either way.
func (t Teller) DiffReport(where string, err error) {
	if err != nil {
		t.Say(slog.LevelWarn, fmt.Sprintf("warning: the diff report: %v", err), "diff report failed", "error", err.Error())
	} else if where != "" {
		t.Say(slog.LevelInfo, "diff: "+where, "diff report written", "path", where)
	}
}

// PartsRemoved says a merge removed its parts at parts, or, as a warning,
// why not.
func (t Teller) PartsRemoved(parts string, err error) {
	if err != nil {
		t.Say(slog.LevelWarn, fmt.Sprintf("warning: the merge is published; removing the parts: %v", err), "removing the parts failed", "error", err.Error())
		return
	}
	t.Say(slog.LevelInfo, fmt.Sprintf("removed the parts at %s", redact.URL(parts)), "removed the parts", "parts", redact.URL(parts))
}

// NothingToReuse says why the previous snapshot prev gives the run nothing
// to reuse: nothing published there yet (a note), or a latest that names no
// good snapshot (a warning, broken).
func (t Teller) NothingToReuse(prev string, err error, broken bool) {
	level, word := slog.LevelInfo, "note"
	if broken {
		level, word = slog.LevelWarn, "warning"
	}
	t.Say(level, fmt.Sprintf("%s: --prev %s: %v; nothing to reuse", word, redact.URL(prev), err), "nothing to reuse",
		"prev", redact.URL(prev), "reason", err.Error())
}

// UnmatchedIgnore notes an --ignore code that matched no diagnostic of the
// run, with the nearest code it had ("" for none): a typo must not pass for
// a quiet corpus.
func (t Teller) UnmatchedIgnore(code, nearest string) {
	msg := fmt.Sprintf("note: --ignore %s matched no diagnostic of this run", code)
	if nearest != "" {
		msg += fmt.Sprintf("; did you mean %s?", nearest)
	}
	t.Say(slog.LevelWarn, msg, "ignored code matched no diagnostic", "code", code, "nearest", nearest)
}

// Failed tells the error a command ended with, and its exit code.
func (t Teller) Failed(msg string, code int) {
	if t.JSON {
		Records(t.W).Error(msg, "exit_code", code)
		return
	}
	fmt.Fprintf(t.W, "ingest: %s\n", msg)
}

// NoDictionary says a dictionary questions are translated with is missing
// or unreadable, and what to do: the search goes on without it.
func (t Teller) NoDictionary(err error) {
	t.Say(slog.LevelWarn, "note: "+err.Error(), "dictionary not available", "error", err.Error())
}
