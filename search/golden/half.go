package golden

import (
	"fmt"
	"hash/fnv"
)

// The halves of a golden set. A change is tuned on the dev half only and
// measured on both: the held-out half's figures say whether it holds for
// questions nobody tuned to (whose failures nobody reads while fixing).
const (
	HalfDev     = "dev"
	HalfHeldOut = "held-out"
)

// Half returns the questions of one half of the set, in their order: a
// question is in the dev half when the 32-bit FNV-1a hash of its id is
// even, so a question stays in its half whatever else the file holds. ""
// is the whole set.
func (qs *Set) Half(half string) (*Set, error) {
	var want uint32
	switch half {
	case "":
		return qs, nil
	case HalfDev:
	case HalfHeldOut:
		want = 1
	default:
		return nil, fmt.Errorf("half %q: want %s or %s", half, HalfDev, HalfHeldOut)
	}
	out := &Set{Version: qs.Version, Corpus: qs.Corpus}
	for _, q := range qs.Questions {
		h := fnv.New32a()
		h.Write([]byte(q.ID))
		if h.Sum32()%2 == want {
			out.Questions = append(out.Questions, q)
		}
	}
	if len(out.Questions) == 0 {
		return nil, fmt.Errorf("the %s half holds no question", half)
	}
	return out, nil
}
