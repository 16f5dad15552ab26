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
}

// Ask loads the snapshot in dir and searches it for query.
func Ask(ctx context.Context, dir, query string, opt Options) (*Answer, error) {
	ix, err := Load(ctx, dir)
	if err != nil {
		return nil, err
	}
	res, err := ix.Search(ctx, query, opt)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	a := &Answer{Results: res, Chunks: ix.Len()}
	if opt.Filter.BeachID == "" {
		a.Beaches = ix.Beaches(query)
	}
	return a, nil
}
