package console

import (
	"fmt"
	"io"
	"maps"
	"sort"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages"
)

// RunSummary is `index --json`: one JSON document on stdout, whatever the
// outcome. Its shape is documented in README.md ("Machine output").
type RunSummary struct {
	Status      string                `json:"status"` // ok | partial | failed | usage | interrupted
	ExitCode    int                   `json:"exit_code"`
	Error       string                `json:"error,omitempty"`
	Snapshot    *SummarySnapshot      `json:"snapshot,omitempty"`
	Counts      *artifacts.Counts     `json:"counts,omitempty"`
	Calls       *artifacts.Calls      `json:"calls,omitempty"`
	Diagnostics map[string]int        `json:"diagnostics,omitempty"` // by severity
	Cleaned     []string              `json:"cleaned,omitempty"`     // leftovers of interrupted runs removed
	Seconds     float64               `json:"seconds,omitempty"`
	Stages      []artifacts.StageStat `json:"stages,omitempty"`
}

// SummarySnapshot is the snapshot a run published.
type SummarySnapshot struct {
	Path     string   `json:"path"`
	Name     string   `json:"name"`
	Reused   bool     `json:"reused"`             // the same snapshot was already published
	Previous string   `json:"previous,omitempty"` // the snapshot it was built against
	Pruned   []string `json:"pruned,omitempty"`
	// Quarantined are published snapshots of the same content that failed
	// verification, moved aside (kept for inspection) and replaced.
	Quarantined []publish.Quarantined `json:"quarantined,omitempty"`
	RunID       string                `json:"run_id"`
}

// NewRunSummary is the summary of res (nil when the run published
// nothing), which the command ended with the exit code and status given and
// the error message (empty for none).
func NewRunSummary(res *stages.Result, code int, status, errMsg string) RunSummary {
	s := RunSummary{ExitCode: code, Status: status, Error: errMsg}
	if res == nil {
		return s
	}
	m := res.Manifest
	p := res.Published
	s.Snapshot = &SummarySnapshot{Path: p.Path, Name: p.Name, Reused: p.Reused, Previous: p.Previous, Pruned: p.Pruned, Quarantined: p.Quarantined, RunID: m.RunID}
	s.Counts, s.Calls, s.Diagnostics = &m.Counts, &m.Calls, m.Diagnostics
	if n := res.Report.IgnoredCount(); n > 0 {
		s.Diagnostics = maps.Clone(m.Diagnostics)
		s.Diagnostics["ignored"] = n // of those counted by severity
	}
	s.Cleaned, s.Seconds, s.Stages = res.Cleaned, res.Report.Seconds, res.Report.Stages
	return s
}

// PrintSummary is the run's summary a person reads.
func PrintSummary(w io.Writer, res *stages.Result) {
	m := res.Manifest
	what := "published"
	if m.Shard != nil {
		what = fmt.Sprintf("published part %d of %d to", m.Shard.Index, m.Shard.Count)
	}
	fmt.Fprintf(w, "%s %s: %s", what, res.Published.Path, Plural(m.Counts.Documents, "document"))
	if n := len(m.EmptyDocuments); n > 0 {
		fmt.Fprintf(w, ", %d of them without chunks", n) // counted, as list and diff count them
	}
	fmt.Fprintf(w, " (%d rejected, %s skipped", m.Counts.Rejected, Plural(m.Counts.Skipped, "file"))
	if m.Counts.Drafts > 0 || m.Counts.Excluded > 0 {
		fmt.Fprintf(w, ", %s, %d excluded", Plural(m.Counts.Drafts, "draft"), m.Counts.Excluded)
	}
	fmt.Fprintf(w, "), %s in %.2fs\n", Plural(m.Counts.Chunks, "chunk"), res.Report.Seconds)
	fmt.Fprintf(w, "  by kind:     %s\n", FormatCounts(m.Counts.ByKind))
	fmt.Fprintf(w, "  by lang:     %s\n", FormatCounts(m.Counts.ByLang))
	fmt.Fprintf(w, "  by element:  %s\n", FormatCounts(m.Counts.ByElement))
	if cs := res.Report.ChunkSizes; cs != nil && cs.All.Count > 0 {
		fmt.Fprintf(w, "  sizes:       %s p10 %d, median %d, p90 %d, max %d (budget %d); prose under min %d: %s\n", cs.Unit, cs.All.P10, cs.All.Median,
			cs.All.P90, cs.All.Max, cs.Max, cs.Min, share(cs.UnderMin, cs.Prose))
	}
	ignored := ""
	if n := res.Report.IgnoredCount(); n > 0 {
		ignored = fmt.Sprintf(" (%d ignored)", n)
	}
	fmt.Fprintf(w, "  diagnostics: %s, %s, %d info%s\n", Plural(m.Diagnostics["error"], "error"), Plural(m.Diagnostics["warning"], "warning"), m.Diagnostics["info"], ignored)
	fmt.Fprintf(w, "  embedder:    %s (%d dims); headers: %s; status: %s\n", m.Embedder.Name, m.Embedder.Dims, m.HeaderWriter, res.Status)
	c := m.Calls
	fmt.Fprintf(w, "  work:        %s, %s; reused %s and %s (%d from a resumed journal); %s superseded\n",
		Plural(c.HeaderCalls, "header call"), Plural(c.EmbedCalls, "embedding call"), Plural(c.HeadersReused, "header"),
		Plural(c.VectorsReused, "vector"), c.FromJournal, Plural(c.Superseded, "chunk"))
}

// share is "12 of 300 (4.0%)".
func share(n, of int) string {
	if of == 0 {
		return "none"
	}
	return fmt.Sprintf("%d of %d (%.1f%%)", n, of, 100*float64(n)/float64(of))
}

// Plural is "1 chunk", "2 chunks".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func FormatCounts(m map[string]int) string {
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
