package prompt

import (
	"reflect"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

func TestUnmadeClaims(t *testing.T) {
	const rips = "Rip currents form beside the rocks. If a rip pulls you out, do not swim against it. Never swim at night."
	tests := []struct {
		name, chunk, header string
		lang                schema.Lang
		want                []string
	}{
		{"always safe, from nowhere", rips, "It is always safe to swim here.", schema.LangEN, []string{"safe"}},
		{"no lifeguard needed", rips, "No lifeguard is needed at this beach.", schema.LangEN, []string{"not needed"}},
		{"the red flag ignored", "Do not enter the water when the red flag is up.", "The red flag can be ignored.", schema.LangEN, []string{"ignore"}},
		{"swim at night", rips, "You can swim at night here.", schema.LangEN, []string{"allowed"}},
		{"not dangerous", "Rip currents are dangerous.", "Rip currents here are not dangerous.", schema.LangEN, []string{"not danger"}},
		{"a look-alike letter hides nothing", rips, "It is always s\u0430fe to swim here.", schema.LangEN, []string{"safe"}},
		{"Portuguese", "O repuxo se forma perto das pedras.", "É sempre seguro nadar aqui.", schema.LangPT, []string{"safe"}},
		{"Spanish on an English page", rips, "No hace falta socorrista en esta playa.", schema.LangEN, []string{"not needed"}},
		{"safe where the chunk says so", "It is safe to swim only between the red and yellow flags.", "Explains that it is safe to swim between the flags.", schema.LangEN, nil},
		{"but not always", "It is safe to swim only between the red and yellow flags.", "It is always safe to swim between the flags.", schema.LangEN, []string{"always"}},
		{"negation dropped", "It is not safe to swim when the red flag is up.", "It is safe to swim when the red flag is up.", schema.LangEN, []string{"safe"}},
		{"a warning is no reassurance", "Lightning can strike the sea.", "Warns that thunderstorms are dangerous for swimmers.", schema.LangEN, nil},
		{"never safe is a warning", "Do not swim at night.", "Explains why swimming at night is never safe.", schema.LangEN, nil},
		{"stay safe is an aim", "Enter slowly and wear a wetsuit.", "How to stay safe when entering cold water.", schema.LangEN, nil},
		{"Portuguese no is not a negation", "No verão é seguro nadar entre as bandeiras.", "É seguro nadar entre as bandeiras no verão.", schema.LangPT, nil},
		{"a technical page", "Ignore the warning if you use TLS at the load balancer.", "When it is safe to ignore the insecure endpoint warning.", schema.LangEN, nil},
		{"lifeguards from nowhere", rips, "Lifeguards watch this beach all year.", schema.LangEN, []string{"guarded"}},
		{"lifeguards the chunk names", "Guarda-vidas ficam no posto das 8h às 19h.", "Os guarda-vidas ficam no posto durante o dia.", schema.LangPT, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			claims, absolute := claimsOf(tt.chunk, tt.lang)
			if got := unmadeClaims(tt.header, tt.lang, claims, absolute); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestUngrounded(t *testing.T) {
	const doc = "Swimming at Praia da Joaquina\n\n## Rip currents\n\nRip currents form beside the rocks. If a rip pulls you out, swim parallel to the shore."
	tests := []struct {
		name, header string
		want         bool
	}{
		{"the extractive header", "Swimming at Praia da Joaquina › Rip currents: Rip currents form beside the rocks.", false},
		{"a paraphrase", "This section of the Joaquina guide explains how to escape rips by swimming parallel to the shore.", false},
		{"one word of its own", "Rip currents near the rocks and how to get free.", false},
		{"a header from nowhere", "This beach is the best in Brazil, with friendly sharks.", true},
		{"another language", "Siempre es seguro nadar aquí.", true},
		{"a look-alike letter is the word", "Rip curr\u0435nts form beside the rocks.", false},
	}
	stems := newWordStems(doc)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ungrounded(tt.header, stems); (got != nil) != tt.want {
				t.Errorf("got %q not the document's, want ungrounded %v", got, tt.want)
			}
		})
	}
}
