// Package shard splits a corpus into the parts of a sharded run: the K-th
// of N runs of its listing in path order.
package shard

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/corpus"
)

// Shard is one of Count parts of a corpus: the Index-th of Count runs of
// the listing's documents in path order, as even as whole documents make
// them. Every process of a sharded run scans the whole corpus and keeps its
// own run, so no coordinator hands out work and the parts are disjoint and
// complete by construction; and as each part holds a run of the corpus in
// order, the row groups a merge makes from it are mostly those the part
// wrote, which it copies rather than encodes again. The zero Shard is the
// whole corpus.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`

	// Where the shard's run lies in the listing Of bounded it by: after
	// the path after (none for the first shard) up to and with the path
	// upto (none for the last).
	bounded, empty    bool
	after, upto       string
	hasAfter, hasUpto bool
}

// Parse reads "K/N" (K counted from 0, as Kubernetes' Indexed Jobs
// number their pods).
func Parse(s string) (Shard, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, fmt.Errorf("%q: want K/N, such as 0/4", s)
	}
	ki, err1 := strconv.Atoi(k)
	ni, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("%q: want K/N, two whole numbers, such as 0/4", s)
	}
	sh := Shard{Index: ki, Count: ni}
	return sh, sh.Validate()
}

// Validate checks 0 <= Index < Count (or the zero Shard).
func (s Shard) Validate() error {
	switch {
	case s == Shard{}:
		return nil
	case s.Count < 1 || s.Count > 10000:
		return fmt.Errorf("%d shards: want 1 to 10000", s.Count)
	case s.Index < 0 || s.Index >= s.Count:
		return fmt.Errorf("shard %d of %d: shards are numbered 0 to %d", s.Index, s.Count, s.Count-1)
	}
	return nil
}

// Whole reports whether s is the whole corpus, not a shard. Shard 0 of 1
// is a shard: a part holding every document, for a merge.
func (s Shard) Whole() bool { return s.Count == 0 }

// String is "K/N", or "all" for the whole corpus.
func (s Shard) String() string {
	if s.Whole() {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Name is the folder a part is published under: "shard-K-of-N".
func (s Shard) Name() string { return fmt.Sprintf("shard-%d-of-%d", s.Index, s.Count) }

// Of is s bounded by the listing l (its documents in path order): the
// shard's run of l.Docs, and for a path l does not hold, the shard of the
// run it would fall in. A path's shard depends on the listing, so every
// process of a run, scanning the same corpus, agrees on it.
func (s Shard) Of(l corpus.Listing) Shard {
	s.bounded = true
	if s.Count <= 1 {
		return s
	}
	n := len(l.Docs)
	a, b := s.Index*n/s.Count, (s.Index+1)*n/s.Count
	if s.Index == s.Count-1 {
		b = n + 1 // the last shard has what sorts after every document
	}
	s.empty = a >= b
	s.hasAfter, s.hasUpto = a > 0, b <= n
	if !s.empty && s.hasAfter {
		s.after = l.Docs[a-1]
	}
	if !s.empty && s.hasUpto {
		s.upto = l.Docs[b-1]
	}
	return s
}

// Has reports whether the document at path (slash-separated, under the
// root) belongs to the shard Of bounded: it lies in the shard's run of the
// listing, or where the run would hold it. A path the listing does not
// hold (a document gone since the previous snapshot) belongs to one shard
// too, so exactly one part reports it gone.
func (s Shard) Has(path string) bool {
	switch {
	case s.Count <= 1:
		return true
	case !s.bounded:
		panic("shard: Shard.Has before Shard.Of")
	case s.empty:
		return false
	}
	return (!s.hasAfter || path > s.after) && (!s.hasUpto || path <= s.upto)
}

// Select keeps the listing's documents of the shard (bounded by l). What
// the listing says of the whole corpus (skipped files, the excluded count)
// is kept whole: every part reports it the same, and a merge takes it once.
func (s Shard) Select(l corpus.Listing) corpus.Listing {
	if s.Whole() {
		return l
	}
	s = s.Of(l)
	out := corpus.Listing{Skipped: l.Skipped, Excluded: l.Excluded}
	for _, p := range l.Docs {
		if s.Has(p) {
			out.Docs = append(out.Docs, p)
		}
	}
	return out
}
