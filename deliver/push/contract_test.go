package push

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/ocean-safety/ingest/deliver/push/receiver"
	"github.com/ocean-safety/ingest/schema"
)

// TestSchemaClosedLists: the contract's enums of closed values
// (docs/push.schema.json) are exactly what this build sends: a kind,
// language or element added to schema is added to the contract too.
func TestSchemaClosedLists(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(receiver.SchemaPath())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"` // a property may be true
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("push.schema.json: %v", err)
	}
	tests := []struct {
		def, prop string
		want      []string
	}{
		{"document", "kind", schema.KindNames()},
		{"document", "lang", names(schema.Langs)},
		{"chunk", "element", names(schema.Elements)},
	}
	for _, tt := range tests {
		var p struct {
			Enum []string `json:"enum"`
		}
		if err := json.Unmarshal(doc.Defs[tt.def].Properties[tt.prop], &p); err != nil {
			t.Fatalf("%s.%s: %v", tt.def, tt.prop, err)
		}
		got := slices.Sorted(slices.Values(p.Enum))
		want := slices.Sorted(slices.Values(tt.want))
		if !slices.Equal(got, want) {
			t.Errorf("%s.%s: got enum %v, want %v", tt.def, tt.prop, got, want)
		}
	}
}

func names[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
