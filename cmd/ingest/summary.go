package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"sort"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/depot"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
)

// runSummary is `index --json`: one JSON document on stdout, whatever the
// outcome. Its shape is documented in README.md ("Machine output").
type runSummary struct {
	Status      string                `json:"status"` // ok | partial | failed | usage | interrupted
	ExitCode    int                   `json:"exit_code"`
	Error       string                `json:"error,omitempty"`
	Snapshot    *summarySnapshot      `json:"snapshot,omitempty"`
	Counts      *artifacts.Counts     `json:"counts,omitempty"`
	Calls       *artifacts.Calls      `json:"calls,omitempty"`
	Diagnostics map[string]int        `json:"diagnostics,omitempty"` // by severity
	Cleaned     []string              `json:"cleaned,omitempty"`     // leftovers of interrupted runs removed
	Seconds     float64               `json:"seconds,omitempty"`
	Stages      []artifacts.StageStat `json:"stages,omitempty"`
}

type summarySnapshot struct {
	Path     string   `json:"path"`
	Name     string   `json:"name"`
	Reused   bool     `json:"reused"`             // the same snapshot was already published
	Previous string   `json:"previous,omitempty"` // the snapshot it was built against
	Pruned   []string `json:"pruned,omitempty"`
	// Quarantined are published snapshots of the same content that failed
	// verification, moved aside (kept for inspection) and replaced.
	Quarantined []depot.Quarantined `json:"quarantined,omitempty"`
	RunID       string              `json:"run_id"`
}

func newRunSummary(ctx context.Context, res *stages.Result, err error) runSummary {
	code := exitCode(ctx, err)
	s := runSummary{ExitCode: code, Status: map[int]string{exitOK: "ok", exitPartial: "partial", exitFailed: "failed", exitUsage: "usage", exitInterrupted: "interrupted"}[code]}
	if err != nil && !errors.Is(err, errPartial) {
		s.Error = err.Error()
	}
	if res == nil {
		return s
	}
	m := res.Manifest
	p := res.Published
	s.Snapshot = &summarySnapshot{Path: p.Path, Name: p.Name, Reused: p.Reused, Previous: p.Previous, Pruned: p.Pruned, Quarantined: p.Quarantined, RunID: m.RunID}
	s.Counts, s.Calls, s.Diagnostics = &m.Counts, &m.Calls, m.Diagnostics
	if n := ignoredCount(res.Report.Diagnostics); n > 0 {
		s.Diagnostics = maps.Clone(m.Diagnostics)
		s.Diagnostics["ignored"] = n // of those counted by severity
	}
	s.Cleaned, s.Seconds, s.Stages = res.Cleaned, res.Report.Seconds, res.Report.Stages
	return s
}

func printSummary(w io.Writer, res *stages.Result) {
	m := res.Manifest
	what := "published"
	if m.Shard != nil {
		what = fmt.Sprintf("published part %d of %d to", m.Shard.Index, m.Shard.Count)
	}
	fmt.Fprintf(w, "%s %s: %s (%d rejected, %s skipped", what, res.Published.Path, plural(m.Counts.Documents, "document"), m.Counts.Rejected, plural(m.Counts.Skipped, "file"))
	if m.Counts.Drafts > 0 || m.Counts.Excluded > 0 {
		fmt.Fprintf(w, ", %s, %d excluded", plural(m.Counts.Drafts, "draft"), m.Counts.Excluded)
	}
	fmt.Fprintf(w, "), %s in %.2fs\n", plural(m.Counts.Chunks, "chunk"), res.Report.Seconds)
	fmt.Fprintf(w, "  by kind:     %s\n", formatCounts(m.Counts.ByKind))
	fmt.Fprintf(w, "  by lang:     %s\n", formatCounts(m.Counts.ByLang))
	fmt.Fprintf(w, "  by element:  %s\n", formatCounts(m.Counts.ByElement))
	if cs := res.Report.ChunkSizes; cs != nil && cs.All.Count > 0 {
		fmt.Fprintf(w, "  sizes:       %s p10 %d, median %d, p90 %d, max %d (budget %d); prose under min %d: %s\n", cs.Unit, cs.All.P10, cs.All.Median,
			cs.All.P90, cs.All.Max, cs.Max, cs.Min, share(cs.UnderMin, cs.Prose))
	}
	ignored := ""
	if n := ignoredCount(res.Report.Diagnostics); n > 0 {
		ignored = fmt.Sprintf(" (%d ignored)", n)
	}
	fmt.Fprintf(w, "  diagnostics: %s, %s, %d info%s\n", plural(m.Diagnostics["error"], "error"), plural(m.Diagnostics["warning"], "warning"), m.Diagnostics["info"], ignored)
	fmt.Fprintf(w, "  embedder:    %s (%d dims); headers: %s; status: %s\n", m.Embedder.Name, m.Embedder.Dims, m.HeaderWriter, res.Status)
	c := m.Calls
	fmt.Fprintf(w, "  work:        %s, %s; reused %s and %s (%d from a resumed journal); %s superseded\n",
		plural(c.HeaderCalls, "header call"), plural(c.EmbedCalls, "embedding call"), plural(c.HeadersReused, "header"),
		plural(c.VectorsReused, "vector"), c.FromJournal, plural(c.Superseded, "chunk"))
}

func ignoredCount(ds []schema.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Ignored {
			n++
		}
	}
	return n
}

// share is "12 of 300 (4.0%)".
func share(n, of int) string {
	if of == 0 {
		return "none"
	}
	return fmt.Sprintf("%d of %d (%.1f%%)", n, of, 100*float64(n)/float64(of))
}

// plural is "1 chunk", "2 chunks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func formatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
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
func newLogger(cmd *cli.Command, rep *reporter) *slog.Logger {
	var w io.Writer = cmd.Root().ErrWriter
	if rep != nil {
		w = rep
	}
	var level slog.Level
	_ = level.UnmarshalText([]byte(cmd.String("log-level")))
	opts := &slog.HandlerOptions{Level: level}
	if cmd.String("log-format") == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// printQuarantined says which published snapshots failed verification and
// where they were moved, so nobody wonders where a folder went.
func printQuarantined(cmd *cli.Command, pub depot.Published) {
	for _, q := range pub.Quarantined {
		problems := q.Problems
		if len(problems) > 3 {
			problems = append(problems[:3:3], fmt.Sprintf("and %d more", len(q.Problems)-3))
		}
		say(cmd, slog.LevelWarn, fmt.Sprintf("warning: %s failed verification (%s): replaced by this run's snapshot and moved aside to %s for inspection",
			q.Name, strings.Join(problems, "; "), q.Path), "a published snapshot failed verification: moved aside", "name", q.Name, "problems", q.Problems, "moved_to", q.Path)
	}
}
