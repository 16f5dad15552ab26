package redact

import (
	"io"
	"slices"
	"strings"
	"sync"
)

// Set is the secrets a command was given: its arguments', its
// environment's, its config file's (Secrets' results), added as they are
// read. Every Masker over one Set masks the same values.
type Set struct {
	mu      sync.Mutex
	seen    map[string]bool
	replace *strings.Replacer
}

// NewSet returns a set holding secrets.
func NewSet(secrets ...string) *Set {
	s := &Set{seen: map[string]bool{}}
	s.Add(secrets...)
	return s
}

// Add adds secrets (Secrets' results: each already in its encoded forms
// too) to the set.
func (s *Set) Add(secrets ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	added := false
	for _, v := range secrets {
		if len(v) >= minSecret && v != Mask && !s.seen[v] {
			s.seen[v], added = true, true
		}
	}
	if !added && s.replace != nil {
		return
	}
	// Longer first: a secret that holds another is masked whole.
	vs := make([]string, 0, len(s.seen))
	for v := range s.seen {
		vs = append(vs, v)
	}
	sortLongestFirst(vs)
	pairs := make([]string, 0, 2*len(vs))
	for _, v := range vs {
		pairs = append(pairs, v, Mask)
	}
	s.replace = strings.NewReplacer(pairs...)
}

func (s *Set) replacer() *strings.Replacer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.replace
}

// Masker is a writer that replaces, in everything written through it,
// the values of its Set by Mask, and leaves every other byte as written:
// a corpus line "OPENAI_API_KEY=<your key>", a shell completion script or
// a search result print as they are; only what the tool was given as a
// secret is masked. (Messages the tool builds name addresses through URL,
// which masks their credentials wherever they came from.) Each write is
// masked whole; the command line writes a line or more at a time.
type Masker struct {
	w   io.Writer
	set *Set
}

// NewMasker wraps w to mask the values of set.
func NewMasker(w io.Writer, set *Set) *Masker { return &Masker{w: w, set: set} }

func (m *Masker) Write(p []byte) (int, error) {
	r := m.set.replacer()
	if r == nil {
		return m.w.Write(p)
	}
	if _, err := io.WriteString(m.w, r.Replace(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap returns the writer underneath, for a terminal check.
func (m *Masker) Unwrap() io.Writer { return m.w }

// Lines returns what Secrets finds in each line of a file's text (a
// config file's addresses and credential-like values, whatever its keys).
func Lines(text string) []string {
	var values []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if _, v, ok := strings.Cut(line, ": "); ok { // key: value
			values = append(values, strings.Trim(strings.TrimSpace(v), `"'`))
		}
		values = append(values, line)
	}
	return Secrets(values...)
}

func sortLongestFirst(vs []string) {
	slices.SortFunc(vs, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
}
