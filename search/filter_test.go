package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// TestFilterBeforeRanking: each filter keeps a chunk that ranks below the
// top k of the unfiltered search, so filtering the top k afterwards would
// return nothing; filtering before ranking finds it, in every mode.
func TestFilterBeforeRanking(t *testing.T) {
	strong := "Rip current: a rip current pulls you out. Escape a rip current by swimming parallel."
	weak := "Beach day notes: parking, kiosks, umbrellas, towels, sand, showers and a rip current sign near the kiosk."
	rare := chunk("rare-source.md", schema.LangEN, schema.KindProse, "", weak)
	rare.SourceLabel = "lifeguards"
	chunks := []schema.Chunk{
		chunk("s1.md", schema.LangEN, schema.KindProse, "", strong),
		chunk("s2.md", schema.LangEN, schema.KindProse, "", strong+" Again."),
		chunk("s3.md", schema.LangEN, schema.KindProse, "", strong+" Stay calm."),
		chunk("s4.md", schema.LangEN, schema.KindProse, "", strong+" Wave for help."),
		rare,
		chunk("pt.md", schema.LangPT, schema.KindProse, "", "Notas do dia: estacionamento, quiosques, guarda-sóis, toalhas e uma placa de rip current perto do quiosque."),
		chunk("safety.md", schema.LangEN, schema.KindSafety, "", weak+" Rules."),
		chunk("lore.md", schema.LangEN, schema.KindLore, "joaquina", weak+" Joaca."),
	}
	ix := embedded(t, chunks...)
	const k = 3
	tests := []struct {
		name   string
		filter Filter
		want   string
	}{
		{"source label", Filter{SourceLabel: "lifeguards"}, "rare-source.md"},
		{"lang", Filter{Lang: schema.LangPT}, "pt.md"},
		{"kind", Filter{Kind: schema.KindSafety}, "safety.md"},
		{"beach", Filter{BeachID: "joaquina"}, "lore.md"},
	}
	ctx := context.Background()
	for _, mode := range Modes {
		all, err := ix.Search(ctx, "how to escape a rip current", Options{Mode: mode, K: k})
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range tests {
			t.Run(string(mode)+"/"+tt.name, func(t *testing.T) {
				if slices.Contains(docs(all), tt.want) {
					t.Fatalf("got %s in the unfiltered top %d %v, want it below (the case proves nothing otherwise)", tt.want, k, docs(all))
				}
				got, err := ix.Search(ctx, "how to escape a rip current", Options{Mode: mode, K: k, Filter: tt.filter})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 1 || got[0].DocPath != tt.want {
					t.Errorf("got %v, want [%s]", docs(got), tt.want)
				}
			})
		}
	}
}

func TestBeaches(t *testing.T) {
	ix := New(nil,
		chunk("j.md", schema.LangEN, schema.KindLore, "joaquina", "x"),
		chunk("b.md", schema.LangPT, schema.KindLore, "barra-da-lagoa", "x"),
		chunk("m.md", schema.LangEN, schema.KindLore, "praia-mole", "x"),
		chunk("p.md", schema.LangEN, schema.KindProse, "", "x"),
	)
	tests := []struct {
		query string
		want  []string
	}{
		{"Where does the name of Joaquina beach come from?", []string{"joaquina"}},
		{"JOAQUÍNA", []string{"joaquina"}},
		{"Pode nadar no canal da Barra da Lagoa?", []string{"barra-da-lagoa"}},
		{"barra-da-lagoa", []string{"barra-da-lagoa"}},
		{"Why is the shore break at Praia Mole dangerous?", []string{"praia-mole"}},
		{"surf at Mole today", []string{"praia-mole"}},
		{"Joaquina or Praia Mole?", []string{"joaquina", "praia-mole"}},
		{"Which praia is safest?", nil},               // the generic word names no beach
		{"Lagoa da Conceição at dusk", nil},           // part of a name is not the name
		{"a barra by the lagoon, not the lagoa", nil}, // the words must be consecutive (stop words aside)
		{"Is there a rip current at Campeche?", nil},  // no lore about it in this index
		{"Joaquinas and Joaquinhas", nil},             // whole words only
		{"how to escape a rip current", nil},          // most questions name no beach
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if got := ix.Beaches(tt.query); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestBeachRestriction: a question that names a beach is answered from that
// beach's lore and the general documents, never from another beach's lore,
// even when the other lore matches more words.
func TestBeachRestriction(t *testing.T) {
	chunks := []schema.Chunk{
		chunk("lore/joaquina.md", schema.LangEN, schema.KindLore, "joaquina", "Climbing the wet rocks at Joaquina is dangerous."),
		chunk("lore/praia-mole.md", schema.LangEN, schema.KindLore, "praia-mole", "Rocks, rocks and more rocks: climbing the wet rocks at Praia Mole to watch the waves is dangerous."),
		chunk("lore/barra.md", schema.LangPT, schema.KindLore, "barra-da-lagoa", "Climbing the wet rocks of the Barra da Lagoa canal to watch the waves is dangerous."),
		chunk("safety/rules.md", schema.LangEN, schema.KindSafety, "", "Stay off wet rocks when there are waves."),
	}
	ix := embedded(t, chunks...)
	tests := []struct {
		name  string
		query string
		opt   Options
		want  []string // the documents ranked, in any order
	}{
		{"named beach", "Is it safe to climb the rocks at Joaquina to watch the waves?", Options{},
			[]string{"lore/joaquina.md", "safety/rules.md"}},
		{"two named beaches", "Climbing rocks at Joaquina or Praia Mole?", Options{},
			[]string{"lore/joaquina.md", "lore/praia-mole.md", "safety/rules.md"}},
		{"no beach named", "Is it safe to climb wet rocks to watch the waves?", Options{},
			[]string{"lore/joaquina.md", "lore/praia-mole.md", "lore/barra.md", "safety/rules.md"}},
		{"detection off", "Is it safe to climb the rocks at Joaquina to watch the waves?", Options{NoBeachDetection: true},
			[]string{"lore/joaquina.md", "lore/praia-mole.md", "lore/barra.md", "safety/rules.md"}},
		{"beach filter wins over the name", "Is it safe to climb the rocks at Joaquina to watch the waves?", Options{Filter: Filter{BeachID: "praia-mole"}},
			[]string{"lore/praia-mole.md"}},
	}
	for _, mode := range Modes {
		for _, tt := range tests {
			t.Run(string(mode)+"/"+tt.name, func(t *testing.T) {
				opt := tt.opt
				opt.Mode, opt.K = mode, 10
				res, err := ix.Search(context.Background(), tt.query, opt)
				if err != nil {
					t.Fatal(err)
				}
				got := docs(res)
				slices.Sort(got)
				want := slices.Clone(tt.want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("got %s, want %s", strings.Join(got, " "), strings.Join(want, " "))
				}
			})
		}
	}
}

func TestSearchOptions(t *testing.T) {
	ix := New(nil, chunk("a.md", schema.LangEN, schema.KindProse, "", "rip current"))
	tests := []struct {
		name    string
		opt     Options
		wantErr string
	}{
		{"bad mode", Options{Mode: "semantic"}, `unknown mode "semantic"`},
		{"negative k", Options{K: -1}, "k -1"},
		{"bad lang", Options{Mode: ModeBM25, Filter: Filter{Lang: "de"}}, `unknown lang "de"`},
		{"bad kind", Options{Mode: ModeBM25, Filter: Filter{Kind: "poem"}}, `unknown kind "poem"`},
		{"vector without an embedder", Options{Mode: ModeVector}, "only bm25"},
		{"bm25 without an embedder", Options{Mode: ModeBM25}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ix.Search(context.Background(), "rip", tt.opt)
			if got := errString(err); tt.wantErr == "" && err != nil || !strings.Contains(got, tt.wantErr) {
				t.Errorf("got error %q, want %q", got, tt.wantErr)
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
