package search

import (
	"slices"

	"github.com/ocean-safety/ingest/text/lexical"
)

// floorMaxFlagged is the share of answerable questions a proposed floor may
// flag as having nothing relevant: a reader told "nothing" for one question
// in ten it could have answered is the most the issue accepts.
const floorMaxFlagged = 0.10

// builtinFloors are the relevance floors of the built-in embedder's
// snapshots, per mode: what Evaluate proposed (floorMaxFlagged) on the dev
// half of the otel golden set and on the shipped corpus's set, the lower of
// the two, so neither flags more than a tenth of its answerable questions.
// A snapshot of another embedder has no built-in floor: its eval proposes
// one, which a consumer passes to search (Options.Floor).
//
// Proposed on the otel dev half: bm25 0.590, vector 0.338, hybrid 0.453; on
// the shipped corpus: 0.523, 0.307, 0.403 (AUROC there 0.98, 0.97, 0.99).
var builtinFloors = map[Mode]float64{ModeBM25: 0.52, ModeVector: 0.30, ModeHybrid: 0.40}

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
