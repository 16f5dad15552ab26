package console

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/search"
)

// excerptRunes is how much of a chunk a text result shows: two terminal
// lines, enough to recognise the passage.
const excerptRunes = 160

// SearchOutput is the --json form of `ingest search`.
type SearchOutput struct {
	Query    string          `json:"query"`
	Snapshot string          `json:"snapshot"`
	Mode     search.Mode     `json:"mode"`
	K        int             `json:"k"`
	Filter   SearchFilter    `json:"filter"`
	Beaches  []string        `json:"beaches"` // named by the question: other beaches' lore was left out
	Results  []search.Result `json:"results"`
	// Floor is the relevance floor the results were held to (0: none);
	// NothingRelevant says no passage cleared it, so Results is empty.
	Floor           float64 `json:"relevance_floor"`
	NothingRelevant bool    `json:"nothing_relevant"`
}

// SearchFilter is the filter a search was narrowed by.
type SearchFilter struct {
	Lang        schema.Lang `json:"lang,omitempty"`
	Kind        schema.Kind `json:"kind,omitempty"`
	BeachID     string      `json:"beach,omitempty"`
	SourceLabel string      `json:"source,omitempty"`
}

// PrintResults prints a search's results, a line of where and a line of
// text each, over an index of chunks chunks.
func PrintResults(w io.Writer, chunks int, out SearchOutput) {
	fmt.Fprintf(w, "%s search of %s (%d chunks)", out.Mode, out.Snapshot, chunks)
	if len(out.Beaches) > 0 {
		fmt.Fprintf(w, "; the question names %s: other beaches' lore left out", strings.Join(out.Beaches, ", "))
	}
	fmt.Fprintln(w)
	if out.NothingRelevant {
		fmt.Fprintf(w, "no passage clears the relevance floor (%.2f)\n", out.Floor)
		return
	}
	if len(out.Results) == 0 {
		fmt.Fprintln(w, "no matching chunks")
		return
	}
	for i, r := range out.Results {
		where := r.DocPath
		if len(r.SectionPath) > 0 {
			where += " › " + strings.Join(r.SectionPath, " › ")
		}
		tags := string(r.Lang) + " " + string(r.Kind)
		if r.BeachID != "" {
			tags += " " + r.BeachID
		}
		fmt.Fprintf(w, "%2d. %.4f  %s  [%s]\n    %s\n", i+1, r.Score, where, tags, excerpt(r.Text, excerptRunes))
	}
}

// excerpt is text on one line, cut to at most n runes at a word boundary.
func excerpt(text string, n int) string {
	s := strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := string([]rune(s)[:n-1])
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
