package diff

import (
	"slices"
	"sort"

	"github.com/ocean-safety/ingest/schema"
)

// maxAlignCells bounds the table of the exact alignment (4 bytes a cell, so
// 16 MB): past it, a document's middle is aligned greedily, which can call a
// few kept chunks moved but never needs more memory than the document.
const maxAlignCells = 1 << 22

// alignPair joins an old chunk index to a new one.
type alignPair struct{ i, j int }

// commonSubsequence returns the pairs of a longest common subsequence of a
// and b, in increasing order of both. The common prefix and suffix (most of
// a document, usually) are matched without a table.
func commonSubsequence(a, b []string) []alignPair {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var out []alignPair
	for k := 0; k < p; k++ {
		out = append(out, alignPair{k, k})
	}
	am, bm := a[p:len(a)-s], b[p:len(b)-s]
	var mid []alignPair
	if len(am)*len(bm) <= maxAlignCells {
		mid = lcsTable(am, bm)
	} else {
		mid = greedyCommon(am, bm)
	}
	for _, q := range mid {
		out = append(out, alignPair{q.i + p, q.j + p})
	}
	for k := s; k > 0; k-- {
		out = append(out, alignPair{len(a) - k, len(b) - k})
	}
	return out
}

// lcsTable is the textbook dynamic programme: t[i][j] is the length of a
// longest common subsequence of a[i:] and b[j:].
func lcsTable(a, b []string) []alignPair {
	w := len(b) + 1
	t := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else {
				t[i*w+j] = max(t[(i+1)*w+j], t[i*w+j+1])
			}
		}
	}
	var out []alignPair
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			out = append(out, alignPair{i, j})
			i++
			j++
		case t[(i+1)*w+j] >= t[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// greedyCommon matches each element of a to the next equal element of b
// after the last match: a common subsequence, not always a longest one.
func greedyCommon(a, b []string) []alignPair {
	at := map[string][]int{}
	for j, h := range b {
		at[h] = append(at[h], j)
	}
	var out []alignPair
	last := -1
	for i, h := range a {
		js := at[h]
		k := sort.SearchInts(js, last+1)
		if k < len(js) {
			out = append(out, alignPair{i, js[k]})
			last = js[k]
		}
	}
	return out
}

// pairByHash matches the chunks left over on both sides that have the same
// text: moved chunks. It marks them used.
func pairByHash(a, b []string, usedOld, usedNew []bool) []alignPair {
	free := map[string][]int{}
	for j, h := range b {
		if !usedNew[j] {
			free[h] = append(free[h], j)
		}
	}
	var out []alignPair
	for i, h := range a {
		if usedOld[i] || len(free[h]) == 0 {
			continue
		}
		j := free[h][0]
		free[h] = free[h][1:]
		usedOld[i], usedNew[j] = true, true
		out = append(out, alignPair{i, j})
	}
	return out
}

// pairInGaps pairs the chunks still left over that sit in the same gap
// between kept chunks: an edit in place. Within a gap, chunks under the same
// heading path alignPair first, then the rest in order. It marks them used.
func pairInGaps(o, n []schema.Chunk, kept []alignPair, usedOld, usedNew []bool) []alignPair {
	gapOld := func(i int) int { return sort.Search(len(kept), func(k int) bool { return kept[k].i >= i }) }
	gapNew := func(j int) int { return sort.Search(len(kept), func(k int) bool { return kept[k].j >= j }) }
	olds, news := map[int][]int{}, map[int][]int{}
	var gaps []int
	for i := range o {
		if !usedOld[i] {
			g := gapOld(i)
			if len(olds[g]) == 0 {
				gaps = append(gaps, g)
			}
			olds[g] = append(olds[g], i)
		}
	}
	for j := range n {
		if !usedNew[j] {
			news[gapNew(j)] = append(news[gapNew(j)], j)
		}
	}
	var out []alignPair
	match := func(olds, news []int, samePath bool) {
		for _, i := range olds {
			for _, j := range news {
				if usedOld[i] || usedNew[j] || samePath && !slices.Equal(o[i].SectionPath, n[j].SectionPath) {
					continue
				}
				usedOld[i], usedNew[j] = true, true
				out = append(out, alignPair{i, j})
			}
		}
	}
	for _, g := range gaps {
		match(olds[g], news[g], true)
		match(olds[g], news[g], false)
	}
	var restOld, restNew []int
	for i := range o {
		if !usedOld[i] && len(o[i].SectionPath) > 0 {
			restOld = append(restOld, i)
		}
	}
	for j := range n {
		if !usedNew[j] && len(n[j].SectionPath) > 0 {
			restNew = append(restNew, j)
		}
	}
	match(restOld, restNew, true)
	return out
}

// gapStart is where, in the new document, the gap holding old chunk i begins:
// just after the last kept chunk before it.
func gapStart(kept []alignPair, i int) int {
	k := sort.Search(len(kept), func(k int) bool { return kept[k].i >= i })
	if k == 0 {
		return 0
	}
	return kept[k-1].j + 1
}
