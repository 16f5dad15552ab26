package chunking

import (
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

func TestCheck(t *testing.T) {
	text := "<p>ab</p>\ncd"
	good := func() *Body {
		return &Body{Doc: schema.Document{Text: text}, View: "ab       \ncd", Removed: []bool{false, false, true, true, true, true, true, true, true, false, false, false},
			Origin: []int{3, 4, 8, 8, 8, 8, 8, 8, 8, 9, 10, 11}, Blocks: []Block{{Start: 0, End: 2}, {Start: 10, End: 12}}}
	}
	tests := []struct {
		name   string
		break_ func(*Body)
		want   string
	}{
		{name: "as a format fills it", break_: func(*Body) {}},
		{name: "a shorter view", break_: func(b *Body) { b.View = b.View[:5] }, want: "view of"},
		{name: "a newline moved", break_: func(b *Body) { b.View = "ab      \n cd"[:12] }, want: "newline"},
		{name: "an origin going back", break_: func(b *Body) { b.Origin[1] = 2 }, want: "origin"},
		{name: "an origin on another line", break_: func(b *Body) { b.Origin[10] = 8 }, want: "origin"},
		{name: "a block past the end", break_: func(b *Body) { b.Blocks[1].End = 13 }, want: "outside"},
		{name: "blocks out of order", break_: func(b *Body) { b.Blocks[0], b.Blocks[1] = b.Blocks[1], b.Blocks[0] }, want: "before"},
		{name: "removed too short", break_: func(b *Body) { b.Removed = b.Removed[:3] }, want: "removed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := good()
			tt.break_(b)
			err := b.Check()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want no error", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want an error about %q", err, tt.want)
			}
		})
	}
}
