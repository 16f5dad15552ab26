package lexical

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// features counts the distinct features of one text: each word ("w:" and
// the word) and each character trigram of "<word>" ("g:" and three runes).
// A feature is keyed by the 64-bit FNV-1a hash of that string, as the first
// version hashed it, and its bytes are kept in an arena to settle hash
// collisions and to order crowded buckets. It is reset between texts and
// reused, so embedding a text allocates nothing once its buffers have grown.
type features struct {
	feats []feature
	slots []int32 // open addressing over feats: index+1, 0 when empty
	arena []byte  // the features' bytes (without "w:" or "g:"), back to back

	word []byte  // the current word between '<' and '>', folded
	offs []int32 // where each rune of word starts, and its length last

	sum     []float64 // project's accumulator, one per dimension
	fill    []uint32  // features per bucket
	touched []uint64  // buckets that received a feature, one bit each
	crowded []int32   // features in buckets that receive three or more
}

type feature struct {
	hash     uint64
	off, len int32 // the bytes in arena
	count    uint32
	slot     int32 // where slots points at it
	bucket   int32 // set by project
	word     bool  // a word ("w:"), not a trigram ("g:")
}

// FNV-1a, 64 bits, and its state after the prefixes of the two kinds.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

var (
	fnvWord    = fnvAdd(fnvOffset, []byte("w:"))
	fnvTrigram = fnvAdd(fnvOffset, []byte("g:"))
)

func fnvAdd(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

func newFeatures() *features {
	return &features{slots: make([]int32, 1024)}
}

// reset empties the table for the next text; it clears only the slots in
// use, since one long text may have grown the table far beyond what the
// next one needs.
func (f *features) reset() {
	for i := range f.feats {
		f.slots[f.feats[i].slot] = 0
	}
	f.feats, f.arena = f.feats[:0], f.arena[:0]
}

// addText adds the features of every word of text, as Words reads them.
func (f *features) addText(text string) {
	if f.addFolded(text) {
		return
	}
	f.reset()
	word, offs := f.word, f.offs
	for _, w := range Words(text) {
		word, offs = append(word[:0], '<'), append(offs[:0], 0)
		for _, r := range w {
			offs = append(offs, int32(len(word)))
			word = utf8.AppendRune(word, r)
		}
		f.addWord(word, offs)
	}
	f.word, f.offs = word, offs
}

// addFolded folds and splits text in one pass through foldTable; it returns
// false, part-way, when text needs the slow fold. The word being read lives
// in locals: the GC's write barrier made storing it per rune a tenth of the
// embedder.
func (f *features) addFolded(text string) bool {
	t := foldTable()
	word, offs := append(f.word[:0], '<'), append(f.offs[:0], 0)
	defer func() { f.word, f.offs = word, offs }() // keep what grew
	for i := 0; i < len(text); {
		var e foldEntry
		if c := text[i]; c < utf8.RuneSelf {
			e = t[c]
			i++
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			if r >= foldTableSize { // utf8.RuneError included
				return false
			}
			e = t[r]
			i += size
		}
		switch {
		case e&(foldNeighbours|foldDrop) != 0:
			if e&foldNeighbours != 0 {
				return false
			}
		case e&foldWord != 0:
			offs = append(offs, int32(len(word)))
			word = utf8.AppendRune(word, rune(e&foldRune))
		case len(offs) > 1:
			word, offs = f.addWord(word, offs)
		}
	}
	if len(offs) > 1 {
		word, offs = f.addWord(word, offs)
	}
	return true
}

// addWord adds the word in word (after its '<'; offs holds where each rune
// starts), unless it is a stop word, and the trigrams of "<word>". It
// returns the buffers emptied for the next word.
func (f *features) addWord(word []byte, offs []int32) ([]byte, []int32) {
	offs = append(offs, int32(len(word)))
	word = append(word, '>')
	offs = append(offs, int32(len(word)))
	w := word[1 : len(word)-1]
	h := fnvAdd(fnvWord, w)
	if len(w) > maxStopWord || !isStopWord(h, w) {
		f.add(h, w, true)
		for i := 0; i+4 <= len(offs); i++ { // runes i, i+1, i+2; offs ends with the length
			g := word[offs[i]:offs[i+3]]
			f.add(fnvAdd(fnvTrigram, g), g, false)
		}
	}
	return word[:1], offs[:1]
}

// add counts one occurrence of the feature b of the given kind, hashed h.
// New entries are stored by reslicing in place: an append would store the
// slices' pointers, a write barrier each while the GC runs.
func (f *features) add(h uint64, b []byte, word bool) {
	mask := uint64(len(f.slots) - 1)
	for s := h & mask; ; s = (s + 1) & mask {
		i := f.slots[s]
		if i == 0 {
			n, a := len(f.feats), len(f.arena)
			if n == cap(f.feats) || a+len(b) > cap(f.arena) {
				f.feats, f.arena = slices.Grow(f.feats, 1), slices.Grow(f.arena, len(b))
			}
			f.feats = f.feats[:n+1]
			f.feats[n] = feature{hash: h, off: int32(a), len: int32(len(b)), count: 1, slot: int32(s), word: word}
			f.arena = f.arena[:a+len(b)]
			copy(f.arena[a:], b)
			f.slots[s] = int32(n + 1)
			if 2*len(f.feats) > len(f.slots) {
				f.grow()
			}
			return
		}
		if ft := &f.feats[i-1]; ft.hash == h && ft.word == word && bytes.Equal(f.bytes(ft), b) {
			ft.count++
			return
		}
	}
}

func (f *features) bytes(ft *feature) []byte { return f.arena[ft.off : ft.off+ft.len] }

// grow doubles the table and places every feature again.
func (f *features) grow() {
	f.slots = make([]int32, 2*len(f.slots))
	mask := uint64(len(f.slots) - 1)
	for i := range f.feats {
		s := f.feats[i].hash & mask
		for f.slots[s] != 0 {
			s = (s + 1) & mask
		}
		f.slots[s] = int32(i + 1)
		f.feats[i].slot = int32(s)
	}
}

// sortCrowded orders the features of crowded buckets by bucket, then by
// their strings ("g:…" before "w:…"): the order the first version summed
// them in.
func (f *features) sortCrowded() {
	slices.SortFunc(f.crowded, func(a, b int32) int {
		fa, fb := &f.feats[a], &f.feats[b]
		switch {
		case fa.bucket != fb.bucket:
			return int(fa.bucket - fb.bucket)
		case fa.word != fb.word:
			if fb.word {
				return -1
			}
			return 1
		}
		return bytes.Compare(f.bytes(fa), f.bytes(fb))
	})
}

// stopHashes holds the stop words by the hash of their word feature, which
// addWord computes anyway: cheaper than a map look-up of every word.
var stopHashes = func() (t [256]string) {
	for w := range stopWords {
		s := fnvAdd(fnvWord, []byte(w)) & 255
		for t[s] != "" {
			s = (s + 1) & 255
		}
		t[s] = w
	}
	return t
}()

func isStopWord(h uint64, w []byte) bool {
	for s := h & 255; stopHashes[s] != ""; s = (s + 1) & 255 {
		if stopHashes[s] == string(w) {
			return true
		}
	}
	return false
}
