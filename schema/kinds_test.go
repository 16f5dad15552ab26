package schema

import (
	"slices"
	"strings"
	"testing"
)

// TestKindTable: the table is a closed list the rest of the code can read
// without checking it: names unique and set, a cut each, one kind holding
// the table rows, the default a kind, no folder claimed twice.
func TestKindTable(t *testing.T) {
	seen, folders, rows := map[Kind]bool{}, map[string]Kind{}, 0
	for i, r := range kindTable {
		if r.Kind == "" || r.Kind != Kind(strings.ToLower(string(r.Kind))) || strings.ContainsAny(string(r.Kind), " ,'\"") {
			t.Errorf("row %d: got kind %q, want a lower-case name without spaces, commas or quotes", i, r.Kind)
		}
		if seen[r.Kind] {
			t.Errorf("row %d: kind %q listed twice", i, r.Kind)
		}
		seen[r.Kind] = true
		if r.Cut != CutSection && r.Cut != CutBlock {
			t.Errorf("%s: got cut %d, want CutSection or CutBlock", r.Kind, r.Cut)
		}
		if k, ok := folders[r.Folder]; ok && r.Folder != "" {
			t.Errorf("%s: folder %q is %s's already", r.Kind, r.Folder, k)
		}
		folders[r.Folder] = r.Kind
		if r.Rows {
			rows++
		}
	}
	if rows != 1 {
		t.Errorf("got %d kinds holding the table rows, want 1", rows)
	}
	if !seen[DefaultKind] {
		t.Errorf("got default kind %q, want one of the table's", DefaultKind)
	}
	if len(Kinds) != len(kindTable) {
		t.Fatalf("got %d Kinds, want the table's %d", len(Kinds), len(kindTable))
	}
	for i, k := range Kinds {
		if k != kindTable[i].Kind {
			t.Errorf("Kinds[%d]: got %q, want the table's %q", i, k, kindTable[i].Kind)
		}
	}
}

func TestParseKind(t *testing.T) {
	for _, k := range Kinds {
		got, err := ParseKind(string(k))
		if got != k || err != nil {
			t.Errorf("ParseKind(%q): got %q, %v; want %q, nil", k, got, err, k)
		}
		if !k.Valid() {
			t.Errorf("%q.Valid(): got false, want true", k)
		}
	}
	names := KindNames()
	list := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	for _, s := range []string{"", "poetry", "Prose", "prose "} {
		got, err := ParseKind(s)
		if want := `unknown kind "` + s + `" (want ` + list + ")"; got != "" || err == nil || err.Error() != want {
			t.Errorf("ParseKind(%q): got %q, %v; want an error %q", s, got, err, want)
		}
		if Kind(s).Valid() {
			t.Errorf("%q.Valid(): got true, want false", s)
		}
		if r := Kind(s).Rules(); r != (KindRules{}) {
			t.Errorf("%q.Rules(): got %+v, want none", s, r)
		}
	}
}

// TestKindRules: the rules that follow from a row, for every kind.
func TestKindRules(t *testing.T) {
	rowKind := kindTable[slices.IndexFunc(kindTable, func(r KindRules) bool { return r.Rows })].Kind
	for _, k := range Kinds {
		r := k.Rules()
		if r.Kind != k {
			t.Errorf("%s.Rules().Kind: got %q, want %q", k, r.Kind, k)
		}
		if got, want := r.MergesSmall(), r.Cut == CutSection; got != want {
			t.Errorf("%s: got MergesSmall %v, want %v (cut %d)", k, got, want, r.Cut)
		}
		for _, el := range Elements {
			want := k
			if el == ElementTableRow {
				want = rowKind
			}
			if got := ChunkKind(k, el); got != want {
				t.Errorf("ChunkKind(%s, %s): got %s, want %s", k, el, got, want)
			}
		}
	}
}

// TestKindMeanings pins what the shipped kinds mean, where a reader of the
// corpus contract (corpus/README.md) relies on it.
func TestKindMeanings(t *testing.T) {
	tests := []struct {
		name string
		got  bool
	}{
		{"prose is cut by section", KindProse.Rules().Cut == CutSection},
		{"prose merges small pieces", KindProse.Rules().MergesSmall()},
		{"prose warns of tables", KindProse.Rules().WarnTables},
		{"prose is held to the band", KindProse.Rules().Banded},
		{"the default is prose", DefaultKind == KindProse},
		{"safety is one rule per chunk", KindSafety.Rules().Cut == CutBlock},
		{"safety never merges", !KindSafety.Rules().MergesSmall()},
		{"safety chunks are safety rules", KindSafety.Rules().Safety},
		{"safety/ holds safety documents", KindSafety.Rules().Folder == "safety"},
		{"lore is one paragraph per chunk", KindLore.Rules().Cut == CutBlock},
		{"lore is tied to a beach", KindLore.Rules().Beach},
		{"a table row is structured", ChunkKind(KindSafety, ElementTableRow) == KindStructured},
		{"structured packs its paragraphs", KindStructured.Rules().MergesSmall()},
		{"structured is not held to the band", !KindStructured.Rules().Banded},
		{"only safety is safety", !KindProse.Rules().Safety && !KindLore.Rules().Safety && !KindStructured.Rules().Safety},
		{"only lore is tied to a beach", !KindProse.Rules().Beach && !KindSafety.Rules().Beach && !KindStructured.Rules().Beach},
	}
	for _, tt := range tests {
		if !tt.got {
			t.Errorf("%s: got false, want true", tt.name)
		}
	}
}
