package reuse

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"testing"
)

// memMirror is a Mirror in memory.
type memMirror struct {
	mu     sync.Mutex
	pieces [][]byte
}

func (m *memMirror) ReadJournal(_ context.Context, w io.Writer) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.pieces {
		if _, err := w.Write(p); err != nil {
			return 0, err
		}
	}
	return len(m.pieces), nil
}

func (m *memMirror) AppendJournal(_ context.Context, n int, piece []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n != len(m.pieces) {
		return fmt.Errorf("piece %d, want %d", n, len(m.pieces))
	}
	if !bytes.HasSuffix(piece, []byte("\n")) {
		return fmt.Errorf("piece %d is not whole lines", n)
	}
	m.pieces = append(m.pieces, bytes.Clone(piece))
	return nil
}

func (m *memMirror) RemoveJournal(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pieces = nil
	return nil
}

var _ Mirror = (*memMirror)(nil)

// TestMirroredJournal: every journaled answer is in the mirror when its
// append returns, so a run on a new machine (an empty folder) resumes from
// all of them; a machine's own journal goes to the mirror whole; Remove
// clears both.
func TestMirroredJournal(t *testing.T) {
	ctx := context.Background()
	m := &memMirror{}
	first := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := OpenMirroredJournal(ctx, first, m)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	var wg sync.WaitGroup
	for w := range 4 { // appends from several workers at once, as a run makes them
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 4 {
				if err := j.PutVector(fmt.Sprintf("k%d", i), []float32{float32(i)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	j.Close()
	if len(m.pieces) == 0 || len(m.pieces) > n {
		t.Errorf("got %d pieces for %d appends, want 1 to %d", len(m.pieces), n, n)
	}

	// A new machine: its folder is empty.
	second := filepath.Join(t.TempDir(), "state", "journal.jsonl")
	j2, err := OpenMirroredJournal(ctx, second, m)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if v, ok := j2.Vector(fmt.Sprintf("k%d", i), 1); !ok || v[0] != float32(i) {
			t.Fatalf("k%d: got %v, %v after the move, want it journaled", i, v, ok)
		}
	}
	pieces := len(m.pieces)
	if err := j2.PutHeader("h1", Enrichment{Header: "x"}); err != nil {
		t.Fatal(err)
	}
	if len(m.pieces) != pieces+1 {
		t.Errorf("got %d pieces after one more append, want %d", len(m.pieces), pieces+1)
	}
	j2.Close()

	// The first machine again, its file kept: it goes to the mirror whole.
	other := &memMirror{}
	j3, err := OpenMirroredJournal(ctx, first, other)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	other.ReadJournal(ctx, &got)
	if lines := bytes.Count(got.Bytes(), []byte("\n")); lines != n {
		t.Errorf("got %d lines in a fresh mirror of a kept file, want %d", lines, n)
	}
	if err := j3.Remove(); err != nil {
		t.Fatal(err)
	}
	if len(other.pieces) != 0 {
		t.Errorf("got %d pieces after Remove, want none", len(other.pieces))
	}
}
