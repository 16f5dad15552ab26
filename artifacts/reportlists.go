package artifacts

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/schema"
)

// MaxListedPerCode bounds report.json's diagnostics of one code (and its
// skipped files of one reason): a real corpus's thousand-page site has a
// few hundred of its commonest (otel's: 431 oversize code blocks), listed
// whole; past a thousand one problem is systemic, and its first thousand
// show it as well as twenty thousand would.
const MaxListedPerCode = 1000

// A whole snapshot's report.json is bounded whatever the corpus: its lists
// keep the first MaxListedPerCode entries of each code or reason (the
// embedder's truncations MaxListed), in corpus order, and count the rest,
// so a reviewer sees examples of every problem and the counts stay exact
// (20,000 files rejected every night made a 19 MB report). The
// lists are cut by Bound when a whole snapshot is sealed; a part of a
// sharded run keeps its lists whole, since a merge splits them by document
// (its report goes no further than the merge).

// Unlisted counts the diagnostics of one code and severity past the first
// MaxListedPerCode of their code.
type Unlisted struct {
	Code     string          `json:"code"`
	Severity schema.Severity `json:"severity"`
	// Setup marks the run's own diagnostics (its corpus listing's, its
	// previous snapshot's), which a republishing run replaces with its own.
	Setup   bool `json:"setup,omitempty"`
	Count   int  `json:"count"`
	Ignored int  `json:"ignored,omitempty"` // of Count, accepted by the run's config
}

// ListDiagnostics puts ds, of which the first setup are the run's own, in
// the report: the first MaxListedPerCode of each code listed in order, the rest
// counted in Unlisted, and more (the counts a republished report carries)
// added to those counts.
func (r *Report) ListDiagnostics(ds []schema.Diagnostic, setup int, more ...Unlisted) {
	listed := make([]schema.Diagnostic, 0, min(len(ds), MaxListedPerCode))
	perCode := map[string]int{}
	type key struct {
		code     string
		severity schema.Severity
		setup    bool
	}
	counts := map[key]*Unlisted{}
	count := func(u Unlisted) {
		k := key{u.Code, u.Severity, u.Setup}
		c := counts[k]
		if c == nil {
			c = &Unlisted{Code: u.Code, Severity: u.Severity, Setup: u.Setup}
			counts[k] = c
		}
		c.Count += u.Count
		c.Ignored += u.Ignored
	}
	r.SetupDiagnostics = 0
	for i, d := range ds {
		if perCode[d.Code] < MaxListedPerCode {
			perCode[d.Code]++
			listed = append(listed, d)
			if i < setup {
				r.SetupDiagnostics++
			}
			continue
		}
		u := Unlisted{Code: d.Code, Severity: d.Severity, Setup: i < setup, Count: 1}
		if d.Ignored {
			u.Ignored = 1
		}
		count(u)
	}
	for _, u := range more {
		count(u)
	}
	r.Diagnostics, r.Unlisted = listed, nil
	for _, u := range counts {
		r.Unlisted = append(r.Unlisted, *u)
	}
	slices.SortFunc(r.Unlisted, func(a, b Unlisted) int {
		if a.Setup != b.Setup {
			return map[bool]int{true: -1, false: 1}[a.Setup]
		}
		return cmp.Or(strings.Compare(a.Code, b.Code), strings.Compare(string(a.Severity), string(b.Severity)))
	})
}

// DocumentDiagnostics are the diagnostics of r that are the documents'
// (not the run's own, SetupDiagnostics): those it lists and the counts of
// those it does not, which an unchanged corpus's run republishes after
// its own.
func (r Report) DocumentDiagnostics() ([]schema.Diagnostic, []Unlisted) {
	listed := r.Diagnostics[min(r.SetupDiagnostics, len(r.Diagnostics)):]
	var counted []Unlisted
	for _, u := range r.Unlisted {
		if !u.Setup {
			counted = append(counted, u)
		}
	}
	return listed, counted
}

// DiagnosticCounts counts every diagnostic r accounts for, listed or not,
// by severity (error, warning and info always present): the manifest's
// diagnostics.
func (r Report) DiagnosticCounts() map[string]int {
	out := map[string]int{string(schema.SeverityError): 0, string(schema.SeverityWarning): 0, string(schema.SeverityInfo): 0}
	for _, d := range r.Diagnostics {
		out[string(d.Severity)]++
	}
	for _, u := range r.Unlisted {
		out[string(u.Severity)] += u.Count
	}
	return out
}

// IgnoredCount counts the diagnostics the run's config accepted, listed
// or not.
func (r Report) IgnoredCount() int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.Ignored {
			n++
		}
	}
	for _, u := range r.Unlisted {
		n += u.Ignored
	}
	return n
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

// Bound cuts a whole snapshot's report to its bounds: the diagnostics
// (the first setup of them the run's own), the skipped files, and the
// embedder's truncations, sorted by input hash (a merge of parts then
// lists the ones a single run would) and the first MaxListed kept with
// their total.
func (r *Report) Bound(setup int) {
	r.ListDiagnostics(r.Diagnostics, setup)
	r.ListSkipped(r.Skipped, nil)
	if m := r.Models; m != nil && len(m.Truncations) > MaxListed {
		ts := slices.Clone(m.Truncations)
		slices.SortStableFunc(ts, func(a, b schema.Truncation) int { return strings.Compare(a.InputHash, b.InputHash) })
		m.TruncationsTotal, m.Truncations = len(ts), ts[:MaxListed]
	}
}
