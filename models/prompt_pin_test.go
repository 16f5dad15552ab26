package models

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// promptPins is, per PromptVersion, the hash of what the version names: the
// system prompt, a user prompt, the repair prompt and the answer schema in
// both forms. PromptVersion is part of every model header's reuse key: a
// prompt changed under the same version would have the next run reuse
// answers to the old prompt as if they were answers to the new one.
var promptPins = map[string]string{
	"prompt-v2": "bda698d54127e5a53cc37747aebade0975e75d4ef76072c24e6e4c17e048495e",
}

// TestPromptVersionPinned fails when the prompt or the answer schema
// changes without a new PromptVersion, and names the hash to pin under a
// new one.
func TestPromptVersionPinned(t *testing.T) {
	doc := schema.Document{Title: "Rip currents", Text: "# Rip currents\n\nSwim parallel to the shore.\n", Lang: schema.LangEN}
	c := schema.Chunk{Text: "Swim parallel to the shore.", SectionPath: []string{"What to do"}, Lang: schema.LangEN, LeadIn: "If a rip pulls you:"}
	h := sha256.New()
	for _, part := range []string{
		systemPrompt(DefaultHeaderChars),
		userPrompt(doc, c, promptDocChars),
		repairPrompt(errors.New("hazard \"x\": not one of the hazards")),
		string(answerSchema(DefaultHeaderChars, true)),
		string(answerSchema(DefaultHeaderChars, false)),
	} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	got := hex.EncodeToString(h.Sum(nil))
	want, ok := promptPins[PromptVersion]
	switch {
	case !ok || want == "":
		t.Fatalf("PromptVersion %s has no pinned hash: pin %q: %q", PromptVersion, PromptVersion, got)
	case got != want:
		t.Errorf("the prompt or the answer schema changed (hash %s, pinned %s for %s): give PromptVersion a new name, so no cached answer to the old prompt is reused, and pin this hash under it", got, want, PromptVersion)
	}
}
