package bucket

import (
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// journalPrefix is where a run publishing to the prefix keeps its journal
// of model answers, in pieces: a run that dies on one machine (a retried
// Kubernetes pod, whose work folder died with it) resumes on another from
// the answers it paid for. A piece is never overwritten; the pieces go
// once the run has published.
const journalPrefix = ".ingest/journal/"

// ReadJournal writes the journal's pieces to w in order and returns how
// many there were.
func (s *Store) ReadJournal(ctx context.Context, w io.Writer) (int, error) {
	keys, err := s.journalKeys(ctx)
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		r, err := s.b.Get(ctx, k)
		if err != nil {
			return 0, fmt.Errorf("%s: read %s: %w", s, k, err)
		}
		_, err = io.Copy(w, r)
		r.Close()
		if err != nil {
			return 0, fmt.Errorf("%s: read %s: %w", s, k, err)
		}
	}
	return len(keys), nil
}

// AppendJournal stores piece as the journal's n-th piece (from 0).
func (s *Store) AppendJournal(ctx context.Context, n int, piece []byte) error {
	key := fmt.Sprintf("%s%012d.jsonl", journalPrefix, n)
	err := writeAll(ctx, s.b, key, piece, PutOptions{IfNotExist: true, ContentType: "application/jsonl"})
	if isExist(err) {
		return fmt.Errorf("%s: %s exists: another run writes this journal", s, key)
	}
	if err != nil {
		return fmt.Errorf("%s: write %s: %w", s, key, err)
	}
	return nil
}

// RemoveJournal deletes the journal's pieces: what they held is published.
func (s *Store) RemoveJournal(ctx context.Context) error {
	keys, err := s.journalKeys(ctx)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := s.b.Delete(ctx, k); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// journalKeys are the journal's pieces, in order.
func (s *Store) journalKeys(ctx context.Context) ([]string, error) {
	var keys []string
	for o, err := range s.b.List(ctx, journalPrefix, "") {
		if err != nil {
			return nil, fmt.Errorf("%s: list %s: %w", s, journalPrefix, err)
		}
		if !o.IsDir && strings.HasSuffix(o.Key, ".jsonl") && path.Dir(o.Key)+"/" == journalPrefix {
			keys = append(keys, o.Key)
		}
	}
	slices.Sort(keys) // zero-padded: in the order they were written
	return keys, nil
}

// RemoveAll deletes every object under the store's prefix and returns how
// many. It is for a prefix the caller knows to be its own and done with (a
// merged part's: merge --remove-parts), never a publish prefix.
func (s *Store) RemoveAll(ctx context.Context) (int, error) {
	n := 0
	for o, err := range s.b.List(ctx, "", "") {
		if err != nil {
			return n, fmt.Errorf("%s: list: %w", s, err)
		}
		if err := s.b.Delete(ctx, o.Key); err != nil {
			return n, fmt.Errorf("%s: %w", s, err)
		}
		n++
	}
	return n, nil
}
