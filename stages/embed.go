package stages

import (
	"context"
	"hash/fnv"
	"math"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/ocean-safety/ingest/schema"
)

// Embedder turns texts into vectors, in one call per batch. A model server
// and the built-in embedder sit behind it alike.
type Embedder interface {
	// Name identifies the embedder and its model in the manifest and cache keys.
	Name() string
	Dims() int
	// Embed returns one vector of Dims() floats per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

var _ Embedder = (*Builtin)(nil)

// Builtin is the offline embedder: a deterministic lexical embedding. Words
// (accents folded, stop words dropped) and their character trigrams are
// hashed into the vector with a sign bit, weighted 1+log(tf), and the vector
// is L2-normalised, so cosine similarity measures shared vocabulary, tolerant
// of inflection ("current"/"currents", "água"/"agua"). It knows nothing of
// meaning or of translation.
type Builtin struct {
	dims int
}

// NewBuiltin returns the built-in embedder with dims dimensions.
func NewBuiltin(dims int) *Builtin { return &Builtin{dims: dims} }

// Name implements Embedder.
func (*Builtin) Name() string { return "builtin-hash-v1" }

// Dims implements Embedder.
func (b *Builtin) Dims() int { return b.dims }

// Embed implements Embedder.
func (b *Builtin) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = b.vector(t)
	}
	return out, nil
}

const (
	wordWeight    = 1.0
	trigramWeight = 0.35 // trigrams smooth inflection without drowning whole words
)

func (b *Builtin) vector(text string) []float32 {
	counts := map[string]float64{}
	for _, w := range Words(text) {
		counts["w:"+w] += wordWeight
		g := "<" + w + ">"
		rs := []rune(g)
		for i := 0; i+3 <= len(rs); i++ {
			counts["g:"+string(rs[i:i+3])] += trigramWeight
		}
	}
	// Sum in a fixed order: float addition is not associative, and the
	// vectors must be bit-identical from run to run.
	feats := make([]string, 0, len(counts))
	for f := range counts {
		feats = append(feats, f)
	}
	sort.Strings(feats)
	v := make([]float64, b.dims)
	for _, f := range feats {
		tf := counts[f]
		h := fnv.New64a()
		h.Write([]byte(f))
		x := h.Sum64()
		w := 1 + math.Log(tf)
		if tf < 1 {
			w = tf // a lone trigram keeps its small weight
		}
		if x>>63 == 1 {
			w = -w
		}
		v[x%uint64(b.dims)] += w
	}
	var norm2 float64
	for _, x := range v {
		norm2 += x * x
	}
	out := make([]float32, b.dims)
	if norm2 == 0 {
		return out
	}
	inv := 1 / math.Sqrt(norm2)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out
}

// stopWords are dropped from the lexical features: function words of English
// and Portuguese that every chunk shares.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or of to in on at for from by with is are was were be been
		it its this that these those as if then than so not no do does you your can will may should
		o os as um uma uns umas e ou de do da dos das em no na nos nas por para com sem que se ao aos
		e é sao são ser foi eram esta este isso essa esse pelo pela pelos pelas mais muito seu sua`) {
		stopWords[w] = true
	}
}

// foldAccents returns a new accent-folding transformer: a transform.Chain
// keeps state, so each call needs its own.
func foldAccents() transform.Transformer {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}

// Words returns the lower-case, accent-folded words of text, stop words
// dropped: the lexical features of the built-in embedder (and of BM25).
func Words(text string) []string {
	folded, _, err := transform.String(foldAccents(), strings.ToLower(text))
	if err != nil {
		folded = strings.ToLower(text)
	}
	fields := strings.FieldsFunc(folded, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := fields[:0]
	for _, w := range fields {
		if !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// EmbedInput is what the embedder reads for a chunk: its section path, its
// context header, its text and the canonical form of its converted
// quantities ("5 ft [1.52 m]"). The stored text stays verbatim.
func EmbedInput(c schema.Chunk) string {
	var b strings.Builder
	for _, s := range c.SectionPath {
		b.WriteString(s)
		b.WriteString(" › ")
	}
	b.WriteString(c.ContextHeader)
	b.WriteString("\n\n")
	b.WriteString(c.Text)
	if q := canonicalSuffix(c.Quantities); q != "" {
		b.WriteString("\n\n")
		b.WriteString(q)
	}
	return b.String()
}
