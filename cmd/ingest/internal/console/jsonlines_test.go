package console

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJSONLines(t *testing.T) {
	var b strings.Builder
	j := NewJSONLines(&b)
	j.Write([]byte(`{"a":1}` + "\nplain text\n\n" + `{"b"`))
	j.Write([]byte(":2}\nhalf"))
	j.Close()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 4 || lines[0] != `{"a":1}` || lines[2] != `{"b":2}` {
		t.Fatalf("got %q, want the JSON lines as they were and the others wrapped", lines)
	}
	for _, i := range []int{1, 3} {
		var rec struct{ Level, Msg string }
		if err := json.Unmarshal([]byte(lines[i]), &rec); err != nil || rec.Level != "INFO" || rec.Msg != map[int]string{1: "plain text", 3: "half"}[i] {
			t.Errorf("line %d: got %q, want an INFO record of the text", i, lines[i])
		}
	}
}
