package search

import (
	"context"
	"fmt"
)

// Answer is a search of a snapshot: the results, the beaches the question
// names (when no beach filter narrowed it: other beaches' lore was left
// out), and how many chunks the index holds.
type Answer struct {
	Results []Result
	Beaches []string
	Chunks  int
	// Floor is the relevance floor the search was held to (0: none), and
	// NothingRelevant says no result cleared it: Results is then empty, not
	// the noise that ranked first.
	Floor           float64
	NothingRelevant bool
}

// FloorDefault asks Ask for the snapshot's own floor (Index.Floor).
const FloorDefault = -1

// Ask loads the snapshot in dir, translating questions as tr says, and
// searches it for query. A floor above 0 (FloorDefault: the snapshot's)
// turns a search whose best result is less relevant than it into
// NothingRelevant; a search that ranked nothing (a filter that left no
// chunk) is not one.
func Ask(ctx context.Context, dir, query string, opt Options, floor float64, tr Translation) (*Answer, error) {
	ix, err := Load(ctx, dir, tr)
	if err != nil {
		return nil, err
	}
	res, err := ix.Search(ctx, query, opt)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	if floor == FloorDefault {
		floor = ix.Floor(opt.withDefaults().Mode)
	}
	a := &Answer{Results: res, Chunks: ix.Len(), Floor: max(floor, 0)}
	if floor > 0 && len(res) > 0 && res[0].Relevance < floor { // no results at all: nothing matched, said as such
		a.Results, a.NothingRelevant = nil, true
	}
	if opt.Filter.BeachID == "" {
		a.Beaches = ix.Beaches(query)
	}
	return a, nil
}
