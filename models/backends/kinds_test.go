package backends

import (
	"strings"
	"testing"
)

// TestKinds: each kind is registered once, under a name that can prefix a
// setting, with a flag of its own, and serves something; what the
// shipped clients serve is read off their types (tei: embeddings only).
func TestKinds(t *testing.T) {
	names, flags := map[string]bool{}, map[string]bool{}
	for _, k := range Kinds() {
		if k.Name == "" || strings.ContainsAny(k.Name, ": ") || k.Name != strings.ToLower(k.Name) {
			t.Errorf("kind %q: want a lower-case name without a colon or a space (it prefixes KIND:MODEL)", k.Name)
		}
		if names[k.Name] || flags[k.Flag] {
			t.Errorf("kind %q (--%s) is registered twice", k.Name, k.Flag)
		}
		names[k.Name], flags[k.Flag] = true, true
		if k.Flag == "" || k.Env == "" || k.Usage == "" {
			t.Errorf("kind %q: got flag %q, variable %q, usage %q; want all three", k.Name, k.Flag, k.Env, k.Usage)
		}
		if !k.Serves(Chat) && !k.Serves(Embed) {
			t.Errorf("kind %q serves nothing", k.Name)
		}
	}
	for _, name := range []string{"ollama", "openai"} {
		if k, _ := lookupKind(name); !k.Serves(Chat) || !k.Serves(Embed) {
			t.Errorf("kind %q: got chat %v, embeddings %v; want both", name, k.Serves(Chat), k.Serves(Embed))
		}
	}
	if k, _ := lookupKind("tei"); k.Serves(Chat) || !k.Serves(Embed) {
		t.Errorf("kind tei: got chat %v, embeddings %v; want embeddings only", k.Serves(Chat), k.Serves(Embed))
	}
	if got, want := Specs(Chat), "ollama:MODEL or openai:MODEL"; got != want {
		t.Errorf("got chat specs %q, want %q", got, want)
	}
	if got, want := Specs(Embed), "ollama:MODEL, openai:MODEL or tei:MODEL"; got != want {
		t.Errorf("got embedding specs %q, want %q", got, want)
	}
}
