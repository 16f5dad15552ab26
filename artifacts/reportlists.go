package artifacts

import (
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/artifacts/diagnostics"
	"github.com/ocean-safety/ingest/schema"
)

// MaxListedPerCode bounds report.json's skipped files of one reason: a
// real corpus's thousand-page site skips a few hundred of its commonest,
// listed whole; past a thousand one reason is systemic, and its first
// thousand show it as well as twenty thousand would.
const MaxListedPerCode = 1000

// A whole snapshot's report.json is bounded whatever the corpus: its
// diagnostics are counted by code and severity and sampled
// (diagnostics.MaxSampled of each code, every one in DiagnosticsFile), its
// skipped files and the embedder's truncations listed to their bounds and
// counted (Bound), so a reviewer sees examples of every problem and the
// counts stay exact (20,000 files rejected every night made a 19 MB
// report). A part of a sharded run keeps its skipped files and truncations
// whole, for its merge.

// Unlisted counts, in a report written before DiagnosticsFile, the
// diagnostics of one code and severity past the ones it listed: the same
// record as a count of them all.
type Unlisted = diagnostics.Count

// SetDiagnostics puts a run's diagnostics in the report: g's sample and
// counts, of which the first setup (in DiagnosticsFile) are the run's own.
func (r *Report) SetDiagnostics(g *diagnostics.Digest, setup int) {
	r.Diagnostics, r.DiagnosticsByCode, r.SetupDiagnostics, r.Unlisted = g.Sample(), g.Counts(), setup, nil
}

// counts is every diagnostic r accounts for, by code and severity: its
// DiagnosticsByCode, or, in a report written before them, those it lists
// and those it counts past them.
func (r Report) counts() []diagnostics.Count {
	if r.DiagnosticsByCode != nil {
		return r.DiagnosticsByCode
	}
	var g diagnostics.Digest
	for _, d := range r.Diagnostics {
		g.Add(d)
	}
	return append(g.Counts(), r.Unlisted...)
}

// DiagnosticCounts counts every diagnostic r accounts for by severity
// (error, warning and info always present): the manifest's diagnostics.
func (r Report) DiagnosticCounts() map[string]int {
	out := map[string]int{string(schema.SeverityError): 0, string(schema.SeverityWarning): 0, string(schema.SeverityInfo): 0}
	for _, c := range r.counts() {
		out[string(c.Severity)] += c.Count
	}
	return out
}

// IgnoredCount counts the diagnostics the run's config accepted.
func (r Report) IgnoredCount() int {
	n := 0
	for _, c := range r.counts() {
		n += c.Ignored
	}
	return n
}

// DiagnosticCodes is the codes of every diagnostic r accounts for, sorted.
func (r Report) DiagnosticCodes() []string {
	var out []string
	for _, c := range r.counts() {
		out = append(out, c.Code)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ListSkipped puts the skipped files in the report: the first MaxListedPerCode of
// each reason, in order, the rest counted by reason in SkippedUnlisted
// (more, a republished report's counts, added).
func (r *Report) ListSkipped(sk []schema.Skipped, more map[string]int) {
	listed := make([]schema.Skipped, 0, min(len(sk), MaxListedPerCode))
	perReason := map[string]int{}
	var unlisted map[string]int
	for _, s := range sk {
		if perReason[s.Reason] < MaxListedPerCode {
			perReason[s.Reason]++
			listed = append(listed, s)
			continue
		}
		if unlisted == nil {
			unlisted = map[string]int{}
		}
		unlisted[s.Reason]++
	}
	for reason, n := range more {
		if unlisted == nil {
			unlisted = map[string]int{}
		}
		unlisted[reason] += n
	}
	r.Skipped, r.SkippedUnlisted = listed, unlisted
}

// Bound cuts a whole snapshot's report to its bounds: the skipped files,
// and the embedder's truncations, sorted by input hash (a merge of parts
// then lists the ones a single run would) and the first MaxListed kept with
// their total.
func (r *Report) Bound() {
	r.ListSkipped(r.Skipped, nil)
	if m := r.Models; m != nil && len(m.Truncations) > MaxListed {
		ts := slices.Clone(m.Truncations)
		slices.SortStableFunc(ts, func(a, b schema.Truncation) int { return strings.Compare(a.InputHash, b.InputHash) })
		m.TruncationsTotal, m.Truncations = len(ts), ts[:MaxListed]
	}
}
