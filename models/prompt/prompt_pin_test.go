package prompt

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
)

// promptPins is, per PromptVersion, the hash of what the version names: the
// system prompt and the answer schema in both forms (strict and not), a
// user prompt and the repair prompt. PromptVersion is part of every model header's reuse key: a
// prompt changed under the same version would have the next run reuse
// answers to the old prompt as if they were answers to the new one.
var promptPins = map[string]string{
	"prompt-v2": "bda698d54127e5a53cc37747aebade0975e75d4ef76072c24e6e4c17e048495e",
	"prompt-v3": "d3af2b7a7f3dbf90c61c1c7a98ddf85c016ab0a43d58e6297e05280b6c84fa64",
}

// TestPromptVersionPinned fails when the prompt or the answer schema
// changes without a new PromptVersion, and names the hash to pin under a
// new one.
func TestPromptVersionPinned(t *testing.T) {
	doc := schema.Document{Title: "Rip currents", Text: "# Rip currents\n\nSwim parallel to the shore.\n", Lang: schema.LangEN}
	c := schema.Chunk{Text: "Swim parallel to the shore.", SectionPath: []string{"What to do"}, Lang: schema.LangEN, LeadIn: "If a rip pulls you:"}
	h := sha256.New()
	for _, part := range []string{
		SystemPrompt(models.DefaultHeaderChars, false),
		SystemPrompt(models.DefaultHeaderChars, true),
		userPrompt(doc, c, PromptDocChars),
		RepairPrompt(errors.New("hazard \"x\": not one of the hazards")),
		string(AnswerSchema(models.DefaultHeaderChars, false)),
		string(AnswerSchema(models.DefaultHeaderChars, true)),
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
