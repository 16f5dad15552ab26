package search

import (
	"context"
	"maps"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// TestFloorsOf: a snapshot's floors are its manifest's when they are on
// this search's scale, for its embedder and whole; otherwise the built-in
// ones of its embedder (none for an embedder without them).
func TestFloorsOf(t *testing.T) {
	builtin := artifacts.Component{Name: builtinName, Dims: 1024}
	model := artifacts.Component{Name: "ollama:bge-m3", Dims: 1024}
	own := func(emb string, modes map[string]float64) *artifacts.RelevanceFloor {
		return &artifacts.RelevanceFloor{Scale: RelevanceScale, Embedder: emb, Modes: modes, Method: "test"}
	}
	all := map[string]float64{"bm25": 0.7, "vector": 0.5, "hybrid": 0.6}
	tests := []struct {
		name string
		m    artifacts.Manifest
		want map[Mode]float64
	}{
		{"none recorded: built in", artifacts.Manifest{Embedder: builtin}, builtinFloors},
		{"recorded", artifacts.Manifest{Embedder: builtin, RelevanceFloor: own(builtinName, all)},
			map[Mode]float64{ModeBM25: 0.7, ModeVector: 0.5, ModeHybrid: 0.6}},
		{"recorded for a model", artifacts.Manifest{Embedder: model, RelevanceFloor: own(model.Name, all)},
			map[Mode]float64{ModeBM25: 0.7, ModeVector: 0.5, ModeHybrid: 0.6}},
		{"a model without: none", artifacts.Manifest{Embedder: model}, map[Mode]float64{ModeBM25: 0, ModeVector: 0, ModeHybrid: 0}},
		{"another scale: built in", artifacts.Manifest{Embedder: builtin,
			RelevanceFloor: &artifacts.RelevanceFloor{Scale: "relevance-v0", Embedder: builtinName, Modes: all}}, builtinFloors},
		{"another embedder's: built in", artifacts.Manifest{Embedder: builtin, RelevanceFloor: own(model.Name, all)}, builtinFloors},
		{"a mode missing: built in", artifacts.Manifest{Embedder: builtin, RelevanceFloor: own(builtinName, map[string]float64{"bm25": 0.7})}, builtinFloors},
		{"out of range: built in", artifacts.Manifest{Embedder: builtin,
			RelevanceFloor: own(builtinName, map[string]float64{"bm25": 0.7, "vector": 2, "hybrid": 0.6})}, builtinFloors},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := floorsOf(tt.m); !maps.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestManifestFloor: the built-in embedder's snapshots record the built-in
// floors on this scale; another embedder's record none.
func TestManifestFloor(t *testing.T) {
	f := ManifestFloor(builtinName)
	if f == nil || f.Scale != RelevanceScale || f.Embedder != builtinName || f.Method == "" {
		t.Fatalf("got %+v, want the built-in floors on %s, with their method", f, RelevanceScale)
	}
	if got := floorsOf(artifacts.Manifest{Embedder: artifacts.Component{Name: builtinName}, RelevanceFloor: f}); !maps.Equal(got, builtinFloors) {
		t.Errorf("read back: got %v, want %v", got, builtinFloors)
	}
	if f := ManifestFloor("ollama:bge-m3"); f != nil {
		t.Errorf("another embedder: got %+v, want none", f)
	}
}

// TestLoadReadsTheFloor: a loaded snapshot's Floor is its manifest's.
func TestLoadReadsTheFloor(t *testing.T) {
	dir := stagestest.WriteHand(t, stagestest.HandChunks("a.md", "Rip/Swim parallel to the shore."))
	ix, err := Load(context.Background(), dir, Translation{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ix.Floor(ModeHybrid); got != 0 {
		t.Errorf("no floor recorded, embedder %q: got %v, want 0", "hand", got)
	}
	stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) {
		m.RelevanceFloor = &artifacts.RelevanceFloor{Scale: RelevanceScale, Embedder: "hand",
			Modes: map[string]float64{"bm25": 0.7, "vector": 0.5, "hybrid": 0.6}}
	})
	if ix, err = Load(context.Background(), dir, Translation{}); err != nil {
		t.Fatal(err)
	}
	if got := ix.Floor(ModeHybrid); got != 0.6 {
		t.Errorf("recorded 0.6: got %v, want 0.6", got)
	}
}

// TestProposeFloors: per mode the lowest of the reports' proposals, rounded
// down to hundredths; a report without answerable questions proposes
// nothing.
func TestProposeFloors(t *testing.T) {
	rep := func(ss ...Separation) *Report { return &Report{Separations: ss} }
	sep := func(m Mode, answerable int, proposed float64) Separation {
		return Separation{Mode: m, Answerable: answerable, Proposed: proposed}
	}
	tests := []struct {
		name string
		reps []*Report
		want map[Mode]float64
	}{
		{"one report", []*Report{rep(sep(ModeBM25, 9, 0.613), sep(ModeHybrid, 9, 0.452))}, map[Mode]float64{ModeBM25: 0.61, ModeHybrid: 0.45}},
		{"the lower of two", []*Report{rep(sep(ModeBM25, 9, 0.672)), rep(sep(ModeBM25, 9, 0.613))}, map[Mode]float64{ModeBM25: 0.61}},
		{"down, not to the nearest", []*Report{rep(sep(ModeVector, 9, 0.339))}, map[Mode]float64{ModeVector: 0.33}},
		{"a round proposal stays", []*Report{rep(sep(ModeVector, 9, 0.33))}, map[Mode]float64{ModeVector: 0.33}},
		{"no answerable questions", []*Report{rep(sep(ModeBM25, 0, 0)), rep(sep(ModeBM25, 9, 0.5))}, map[Mode]float64{ModeBM25: 0.5}},
		{"nothing", nil, map[Mode]float64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ProposeFloors(tt.reps...); !maps.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
