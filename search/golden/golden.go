package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/ocean-safety/ingest/schema"
)

// version is the version of the golden-questions format this package reads.
const version = 1

// Set is a golden-questions file: questions with the document (and
// section) that answers each, for measuring retrieval.
type Set struct {
	Version   int        `json:"version"`
	Corpus    string     `json:"corpus"` // the corpus the paths are relative to
	Questions []Question `json:"questions"`
}

// Question is one golden question. ExpectedDoc is nil for a question the
// corpus cannot answer: its top score shows how confident a wrong answer
// would look.
type Question struct {
	ID              string      `json:"id"`
	Lang            schema.Lang `json:"lang"`
	Question        string      `json:"question"`
	ExpectedDoc     *string     `json:"expected_doc"`
	ExpectedSection string      `json:"expected_section,omitempty"`
	Alternates      []Alternate `json:"acceptable_alternates,omitempty"`
	// Answer, when set, is a phrase the text of a retrieved chunk must
	// hold for the question to count as answered (answer@k): the right
	// page is not enough when the chunk that comes back lacks the command
	// or the list item asked for. Compared case-insensitively, white space
	// folded.
	Answer string `json:"answer,omitempty"`
}

// HoldsAnswer reports whether text holds q's answer phrase.
func (q Question) HoldsAnswer(text string) bool {
	return q.Answer != "" && strings.Contains(foldSpace(text), foldSpace(q.Answer))
}

// foldSpace is s in lower case with every run of white space one space.
func foldSpace(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// Alternate is another document (and section) that answers a question as well.
type Alternate struct {
	Doc     string `json:"doc"`
	Section string `json:"section,omitempty"`
}

// Answerable reports whether the corpus is expected to answer q.
func (q Question) Answerable() bool { return q.ExpectedDoc != nil }

// RelevantDocs are the documents that count as answering q: the expected
// one and the alternates', in that order.
func (q Question) RelevantDocs() []string {
	if q.ExpectedDoc == nil {
		return nil
	}
	out := []string{*q.ExpectedDoc}
	for _, a := range q.Alternates {
		out = append(out, a.Doc)
	}
	return out
}

// Read reads and validates a golden-questions file.
func Read(file string) (*Set, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("questions: %w", err)
	}
	qs, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("questions %s: %w", file, err)
	}
	return qs, nil
}

// Parse decodes and validates a golden-questions file strictly:
// unknown fields are errors, ids are unique, languages are en or pt, paths
// are corpus-relative. Every problem is reported, each naming its question.
func Parse(b []byte) (*Set, error) {
	var top struct {
		Version   int               `json:"version"`
		Corpus    string            `json:"corpus"`
		Questions []json.RawMessage `json:"questions"`
	}
	if err := decodeStrict(b, &top); err != nil {
		return nil, err
	}
	var errs []error
	if top.Version != version {
		errs = append(errs, fmt.Errorf("version %d: want %d", top.Version, version))
	}
	if len(top.Questions) == 0 {
		errs = append(errs, errors.New("no questions"))
	}
	qs := &Set{Version: top.Version, Corpus: top.Corpus}
	first := map[string]int{} // id → 1-based position of its first use
	for n, raw := range top.Questions {
		q, err := parseQuestion(raw)
		name := Name(n, q.ID)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		for _, err := range q.validate() {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
		if q.ID != "" {
			if p, dup := first[q.ID]; dup {
				errs = append(errs, fmt.Errorf("%s: duplicate id (first used by question %d)", name, p))
			} else {
				first[q.ID] = n + 1
			}
		}
		qs.Questions = append(qs.Questions, q)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return qs, nil
}

// parseQuestion decodes one question strictly. When that fails it still
// returns what a lenient decode found, so the error can name the id.
func parseQuestion(raw json.RawMessage) (Question, error) {
	var q Question
	if err := decodeStrict(raw, &q); err != nil {
		var loose struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(raw, &loose)
		return Question{ID: loose.ID}, err
	}
	return q, nil
}

func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// Name is how a message names the question at 0-based position n of a
// file: its position, 1-based, and its id when it has one.
func Name(n int, id string) string {
	if id == "" {
		return fmt.Sprintf("question %d", n+1)
	}
	return fmt.Sprintf("question %d (%s)", n+1, id)
}

func (q Question) validate() []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if strings.TrimSpace(q.ID) == "" {
		bad("missing id")
	}
	if q.Lang != schema.LangEN && q.Lang != schema.LangPT {
		bad("lang %q: want en or pt", q.Lang)
	}
	if strings.TrimSpace(q.Question) == "" {
		bad("missing question")
	}
	if q.Answer != "" && strings.TrimSpace(q.Answer) == "" {
		bad("answer is only white space")
	}
	if q.ExpectedDoc == nil {
		if q.ExpectedSection != "" || len(q.Alternates) > 0 || q.Answer != "" {
			bad("expected_doc is null (no answer) but expected_section, acceptable_alternates or answer is set")
		}
		return errs
	}
	if err := checkDocPath(*q.ExpectedDoc); err != nil {
		bad("expected_doc: %v", err)
	}
	for i, a := range q.Alternates {
		if err := checkDocPath(a.Doc); err != nil {
			bad("acceptable_alternates[%d].doc: %v", i, err)
		}
	}
	return errs
}

// checkDocPath accepts what the snapshot's doc_path holds: a clean,
// slash-separated path relative to the corpus root.
func checkDocPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case strings.HasPrefix(p, "/") || strings.Contains(p, `\`):
		return fmt.Errorf("%q: want a slash-separated path relative to the corpus root", p)
	case path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("%q: want a clean path inside the corpus", p)
	}
	return nil
}
