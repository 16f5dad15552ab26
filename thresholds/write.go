package thresholds

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/units"
)

// Write renders the proposal file, thresholds.md, for ts (see Proposal).
func Write(w io.Writer, ts []schema.Threshold) error {
	var p Proposal
	for _, t := range ts {
		p.Add(t)
	}
	if _, err := p.WriteTo(w); err != nil {
		return fmt.Errorf("write thresholds proposal: %w", err)
	}
	return nil
}

// siValue formats a threshold's SI value, "15–18 degC" for between.
func siValue(t schema.Threshold) string {
	if t.Comparator == schema.ComparatorBetween {
		return units.FormatSI(t.Value, "") + "–" + units.FormatSI(t.Value2, t.SIUnit)
	}
	return units.FormatSI(t.Value, t.SIUnit)
}

// sourceLink is "[path:line](path#Lline)", relative to the corpus root.
func sourceLink(t schema.Threshold) string {
	line := strconv.Itoa(t.Line)
	text := linkTextEscaper.Replace(t.DocPath)
	target := linkTargetEscaper.Replace(t.DocPath)
	return "[" + text + ":" + line + "](" + target + "#L" + line + ")"
}

// The escapers of a source link and a table cell, built once: a replacer
// costs more to build than to run.
var (
	linkTextEscaper   = strings.NewReplacer("[", `\[`, "]", `\]`, "|", `\|`)
	linkTargetEscaper = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "|", "%7C")
	cellEscaper       = strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ")
)

// cell makes s safe inside a table cell: pipes escaped, line breaks
// flattened.
func cell(s string) string {
	s = cellEscaper.Replace(s)
	return strings.TrimSpace(s)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// Sort orders thresholds by subject (unknown last, so the sections people
// act on come first), comparator, value, document path and line, with the
// rest of the record breaking ties so any input order gives the same file.
func Sort(ts []schema.Threshold) {
	slices.SortStableFunc(ts, compare)
}

func compare(a, b schema.Threshold) int {
	return cmp.Or(
		compareSubject(a.Subject, b.Subject),
		cmp.Compare(a.Comparator, b.Comparator),
		cmp.Compare(a.Value, b.Value),
		cmp.Compare(a.Value2, b.Value2),
		cmp.Compare(a.DocPath, b.DocPath),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Surface, b.Surface),
		cmp.Compare(a.Sentence, b.Sentence),
		cmp.Compare(a.Lang, b.Lang),
		cmp.Compare(strings.Join(a.SectionPath, "\x00"), strings.Join(b.SectionPath, "\x00")),
	)
}

func compareSubject(a, b string) int {
	return cmp.Or(
		cmp.Compare(boolInt(a == SubjectUnknown), boolInt(b == SubjectUnknown)),
		cmp.Compare(a, b),
	)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
