package reuse

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// TestJournal: what was put comes back after the file is closed and opened
// again; a torn last line (a kill mid-write) is dropped and cut off, so the
// next line starts clean; a line that is not JSON is passed over; a vector
// of other dimensions is no answer; a read-only journal changes nothing.
func TestJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	e := Enrichment{Header: "Rip currents › Escape: swim parallel.", Source: schema.HeaderModel, Fields: schema.Fields{Hazard: "rip_current"}}
	v := []float32{0.25, -1, 3.5}
	if err := j.PutHeader("h1", e); err != nil {
		t.Fatal(err)
	}
	if err := j.PutVector("v1", v); err != nil {
		t.Fatal(err)
	}
	if h, n := j.Appended(); h != 1 || n != 1 {
		t.Errorf("Appended: got %d headers, %d vectors, want 1, 1", h, n)
	}
	j.Close()

	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("not json at all\n")
	f.WriteString(`{"k":"h:torn","h":{"header":"half`) // killed mid-line
	f.Close()
	before, _ := os.ReadFile(path)

	ro, err := ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ro.Header("torn"); ok {
		t.Error("read-only: got the torn line's header")
	}
	ro.Close()
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("ReadJournal changed the file")
	}

	j, err = OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if got, ok := j.Header("h1"); !ok || !reflect.DeepEqual(got, e) {
		t.Errorf("Header: got %+v, %v; want %+v", got, ok, e)
	}
	if got, ok := j.Vector("v1", 3); !ok || !reflect.DeepEqual(got, v) {
		t.Errorf("Vector: got %v, %v; want %v", got, ok, v)
	}
	if _, ok := j.Vector("v1", 4); ok {
		t.Error("Vector: got a 3-dim vector for 4 dims")
	}
	if _, ok := j.Header("torn"); ok {
		t.Error("got the torn line's header")
	}
	if err := j.PutHeader("h2", e); err != nil {
		t.Fatal(err)
	}
	if got, ok := j.Header("h2"); !ok || got.Header != e.Header {
		t.Errorf("a line written after the cut: got %+v, %v", got, ok)
	}
	if h, n := j.Appended(); h != 1 || n != 0 {
		t.Errorf("Appended after reopening: got %d, %d, want 1, 0 (this process's only)", h, n)
	}
	b, _ := os.ReadFile(path)
	if want := len(before) - len(`{"k":"h:torn","h":{"header":"half`); len(b) <= want || string(b[:want]) != string(before[:want]) {
		t.Errorf("the file after the cut: %q", b)
	}
}

// TestReadJournalMissing: no journal is no error, and nil.
func TestReadJournalMissing(t *testing.T) {
	j, err := ReadJournal(filepath.Join(t.TempDir(), "none.jsonl"))
	if err != nil || j != nil {
		t.Errorf("got %v, %v; want nil, nil", j, err)
	}
}
