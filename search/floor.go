package search

import (
	"math"
	"slices"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/text/lexical"
)

// floorMaxFlagged is the share of answerable questions a proposed floor may
// flag as having nothing relevant: a reader told "nothing" for one question
// in ten it could have answered is the most the issue accepts.
const floorMaxFlagged = 0.10

// builtinFloors are the relevance floors of the built-in embedder's
// snapshots, per mode: ProposeFloors over Evaluate's proposals
// (floorMaxFlagged) on the dev half of the otel golden set and on the
// shipped corpus's set, the lower of the two, so neither flags more than a
// tenth of its answerable questions. TestFloorCalibration (cmd/ingest)
// proposes them again and fails when they differ: run it after a change to
// what BM25 indexes, the fusion, the built-in embedder or how much the
// other language counts (translate.go).
//
// Proposed on the otel dev half: bm25 0.635, vector 0.352, hybrid 0.577
// since the other language counts in full where the question's own does
// not reach BM25's floor (reaches; 0.635, 0.337, 0.550 before; 0.631,
// 0.331, 0.550 before stem backoff); on the shipped corpus: 0.672, 0.333,
// 0.568, before and after (relevance-v3: hybrid's relevance weighs the
// legs as its fusion does; on relevance-v2, an even mean, hybrid 0.448 and
// 0.477; before schema 5, on the otel dev half, 0.613, 0.326, 0.452).
var builtinFloors = map[Mode]float64{ModeBM25: 0.63, ModeVector: 0.33, ModeHybrid: 0.56}

// builtinFloorMethod is how builtinFloors were set, as a manifest records it.
const builtinFloorMethod = "built in: the highest floor flagging at most a tenth of the answerable questions " +
	"(ingest eval's proposed floor), the lower of the otel golden set's dev half and corpus/ocean.golden.json's, " +
	"rounded down to hundredths"

// RelevanceScale names the relevance floors are on (relevance.go): a
// manifest's floors of another scale mean nothing to this search, which
// then uses its built-in ones. A change to what a relevance of a given
// snapshot and question comes out as (a field BM25 indexes, how the legs'
// relevances combine, an embedder's vectors under its name) needs a new
// scale.
// relevance-v2: BM25 reads a chunk's search_text (schema 5), not its
// verbatim text. relevance-v3: hybrid's relevance weighs the legs as its
// fusion does (relevance.go), not evenly.
const RelevanceScale = "relevance-v3"

// builtinName is the built-in embedder's name, the one builtinFloors are for.
var builtinName = lexical.NewBuiltin(1).Name()

// DefaultFloor is the relevance floor of a snapshot embedded by embedder in
// mode m; 0 (no floor) for an embedder without a calibrated one.
func DefaultFloor(embedder string, m Mode) float64 {
	if embedder != builtinName {
		return 0
	}
	return builtinFloors[m]
}

// ManifestFloor is what a snapshot embedded by embedder records of its
// floors (artifacts.Manifest.RelevanceFloor): the built-in floors, for the
// built-in embedder; nil for another, which has no calibrated floor.
func ManifestFloor(embedder string) *artifacts.RelevanceFloor {
	if embedder != builtinName {
		return nil
	}
	f := &artifacts.RelevanceFloor{Scale: RelevanceScale, Embedder: embedder, Modes: map[string]float64{}, Method: builtinFloorMethod}
	for m, v := range builtinFloors {
		f.Modes[string(m)] = v
	}
	return f
}

// floorsOf are the floors of a snapshot per mode: its manifest's when they
// are on this search's scale, for the snapshot's embedder, and name every
// mode; otherwise the built-in ones (DefaultFloor), as for a snapshot made
// before manifests recorded them.
func floorsOf(m artifacts.Manifest) map[Mode]float64 {
	out := map[Mode]float64{}
	if f := m.RelevanceFloor; f != nil && f.Scale == RelevanceScale && f.Embedder == m.Embedder.Name {
		for _, mode := range Modes {
			v, ok := f.Modes[string(mode)]
			if !ok || !(v >= 0 && v <= 1) {
				return floorsOf(artifacts.Manifest{Embedder: m.Embedder})
			}
			out[mode] = v
		}
		return out
	}
	for _, mode := range Modes {
		out[mode] = DefaultFloor(m.Embedder.Name, mode)
	}
	return out
}

// ProposeFloors are the floors that flag at most floorMaxFlagged of the
// answerable questions of every report (Separation.Proposed): per mode the
// lowest proposal, rounded down to hundredths so that a floor written down
// keeps its promise. Modes no report proposes for are left out.
func ProposeFloors(reps ...*Report) map[Mode]float64 {
	out := map[Mode]float64{}
	for _, r := range reps {
		for _, s := range r.Separations {
			if s.Answerable == 0 {
				continue
			}
			if v, ok := out[s.Mode]; !ok || s.Proposed < v {
				out[s.Mode] = s.Proposed
			}
		}
	}
	for m, v := range out {
		out[m] = math.Floor(v*100+1e-9) / 100
	}
	return out
}

// Separation is how well the top result's relevance tells answerable
// questions from unanswerable ones in one mode: AUROC (the chance that an
// answerable question's relevance is above an unanswerable one's, ties
// half), the floor proposed for this snapshot, and at the floor in use the
// share of each kind of question flagged (relevance below it).
type Separation struct {
	Mode         Mode    `json:"mode"`
	Answerable   int     `json:"answerable"`
	Unanswerable int     `json:"unanswerable"`
	AUROC        float64 `json:"auroc"`
	// Proposed is the highest floor that flags at most floorMaxFlagged of
	// the answerable questions: midway between the relevance of the last
	// answerable question it may flag and the next.
	Proposed float64 `json:"proposed_floor"`
	// Floor is the floor in use (DefaultFloor); the rates are at it.
	Floor               float64 `json:"floor"`
	FlaggedUnanswerable float64 `json:"flagged_unanswerable"` // recall of "nothing relevant"
	FlaggedAnswerable   float64 `json:"flagged_answerable"`   // answerable questions wrongly told "nothing"
	Precision           float64 `json:"precision"`            // of the flagged, the share unanswerable
}

func separation(m Mode, floor float64, pos, neg []float64) Separation {
	s := Separation{Mode: m, Answerable: len(pos), Unanswerable: len(neg), Floor: floor}
	s.AUROC = auroc(pos, neg)
	s.Proposed = proposeFloor(pos)
	fp, tp := below(pos, floor), below(neg, floor)
	if len(pos) > 0 {
		s.FlaggedAnswerable = float64(fp) / float64(len(pos))
	}
	if len(neg) > 0 {
		s.FlaggedUnanswerable = float64(tp) / float64(len(neg))
	}
	if tp+fp > 0 {
		s.Precision = float64(tp) / float64(tp+fp)
	}
	return s
}

func auroc(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return 0 // undefined; the counts say why
	}
	var wins float64
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				wins++
			case p == n:
				wins += 0.5
			}
		}
	}
	return wins / float64(len(pos)*len(neg))
}

func proposeFloor(pos []float64) float64 {
	if len(pos) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(pos))
	k := int(floorMaxFlagged * float64(len(s)))
	if k == 0 {
		return s[0]
	}
	return (s[k-1] + s[k]) / 2
}

func below(xs []float64, floor float64) int {
	n := 0
	for _, x := range xs {
		if x < floor {
			n++
		}
	}
	return n
}
