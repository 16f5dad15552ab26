package golden

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	wrap := func(qs ...string) string {
		return `{"version": 1, "corpus": "corpus/ocean", "questions": [` + strings.Join(qs, ",") + `]}`
	}
	const good = `{"id": "en-rip", "lang": "en", "question": "How do I escape a rip?", "expected_doc": "rip-currents.md", "expected_section": "How to escape", "acceptable_alternates": [{"doc": "safety/beach-rules.md"}]}`
	const none = `{"id": "en-none", "lang": "en", "question": "Sharks in Bali?", "expected_doc": null}`
	tests := []struct {
		name     string
		file     string
		wantErrs []string // each must appear in the error; none: the file is valid
	}{
		{"valid", wrap(good, none), nil},
		{"unknown question field", wrap(good, `{"id": "pt-x", "lang": "pt", "question": "Q?", "expected_doc": null, "hint": "A"}`),
			[]string{`question 2 (pt-x): json: unknown field "hint"`}},
		{"an answer where there is none", wrap(`{"id": "en-n", "lang": "en", "question": "Q?", "expected_doc": null, "answer": "npm install"}`),
			[]string{"question 1 (en-n): expected_doc is null"}},
		{"a blank answer", wrap(strings.Replace(good, `"expected_doc"`, `"answer": "  ", "expected_doc"`, 1)), []string{"question 1 (en-rip): answer is only white space"}},
		{"unknown alternate field", wrap(`{"id": "en-y", "lang": "en", "question": "Q?", "expected_doc": "a.md", "acceptable_alternates": [{"doc": "b.md", "score": 1}]}`),
			[]string{`question 1 (en-y): json: unknown field "score"`}},
		{"unknown top-level field", `{"version": 1, "corpus": "c", "questions": [], "extra": true}`, []string{`unknown field "extra"`}},
		{"duplicate id", wrap(good, none, good), []string{"question 3 (en-rip): duplicate id (first used by question 1)"}},
		{"bad lang", wrap(strings.Replace(good, `"lang": "en"`, `"lang": "fr"`, 1)), []string{`question 1 (en-rip): lang "fr": want en or pt`}},
		{"pt-BR is not a question lang", wrap(strings.Replace(good, `"lang": "en"`, `"lang": "pt-BR"`, 1)), []string{`lang "pt-BR"`}},
		{"missing id", wrap(`{"lang": "en", "question": "Q?", "expected_doc": null}`), []string{"question 1: missing id"}},
		{"missing question", wrap(`{"id": "en-q", "lang": "en", "expected_doc": null}`), []string{"question 1 (en-q): missing question"}},
		{"no answer with a section", wrap(`{"id": "en-n", "lang": "en", "question": "Q?", "expected_doc": null, "expected_section": "S"}`),
			[]string{"question 1 (en-n): expected_doc is null"}},
		{"absolute path", wrap(strings.Replace(good, `"rip-currents.md"`, `"/rip-currents.md"`, 1)), []string{`question 1 (en-rip): expected_doc: "/rip-currents.md"`}},
		{"path outside the corpus", wrap(strings.Replace(good, `"safety/beach-rules.md"`, `"../beach-rules.md"`, 1)),
			[]string{`question 1 (en-rip): acceptable_alternates[0].doc: "../beach-rules.md"`}},
		{"wrong type", wrap(`{"id": "en-t", "lang": "en", "question": 7, "expected_doc": null}`), []string{"question 1 (en-t): json: cannot unmarshal number"}},
		{"version", `{"version": 2, "corpus": "c", "questions": [` + none + `]}`, []string{"version 2: want 1"}},
		{"no questions", `{"version": 1, "corpus": "c", "questions": []}`, []string{"no questions"}},
		{"trailing data", wrap(none) + `{}`, []string{"trailing data"}},
		{"every problem at once", wrap(strings.Replace(good, `"lang": "en"`, `"lang": "de"`, 1), good, `{"id": "en-z", "lang": "en", "question": ""}`),
			[]string{`question 1 (en-rip): lang "de"`, "question 2 (en-rip): duplicate id", "question 3 (en-z): missing question"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qs, err := Parse([]byte(tt.file))
			if len(tt.wantErrs) == 0 {
				if err != nil {
					t.Fatalf("got error %v, want none", err)
				}
				if len(qs.Questions) != 2 || !qs.Questions[0].Answerable() || qs.Questions[1].Answerable() {
					t.Errorf("got %+v, want one answerable and one no-answer question", qs.Questions)
				}
				if got := strings.Join(qs.Questions[0].RelevantDocs(), " "); got != "rip-currents.md safety/beach-rules.md" {
					t.Errorf("got relevant docs %s, want rip-currents.md safety/beach-rules.md", got)
				}
				return
			}
			for _, want := range tt.wantErrs {
				if !strings.Contains(errString(err), want) {
					t.Errorf("got error %q, want it to contain %q", errString(err), want)
				}
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
