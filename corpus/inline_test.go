package corpus

import (
	"strings"
	"testing"
)

// TestCheckInline: the shapes the parser takes quadratic time or memory on
// are refused at the line that crosses the limit, before it runs; real
// shapes of the same marks pass. (396 KB of "*a_ " took 41 s; "[x](" 50,000
// times, minutes; a 2,000-column header over one-cell rows, 6 GB from
// 200 KB.)
func TestCheckInline(t *testing.T) {
	head := "# T\nSource: https://e.org/x\n\n"
	wide := "|" + strings.Repeat("h|", 2000) + "\n|" + strings.Repeat("-|", 2000) + "\n" + strings.Repeat("|a|\n", 100)
	dense := func(rows int) string {
		return "| a | b | c | d |\n|---|---|---|---|\n" + strings.Repeat("| 1 | 2 | 3 | 4 |\n", rows)
	}
	tests := []struct {
		name, body string
		code       string
		line       int
	}{
		{"emphasis runs in one paragraph", strings.Repeat("*a_ ", 1001), "too-many-block-delimiters", 4},
		{"emphasis runs over lines of one paragraph", strings.Repeat("*a_ *a_\n", 501), "too-many-block-delimiters", 4 + 500},
		{"emphasis runs in paragraphs apart", strings.Repeat(strings.Repeat("*a_ ", 999)+"\n\n", 5), "", 0},
		{"escaped marks are text", strings.Repeat(`\*a\_ `, 3000), "", 0},
		{"marks inside fenced code", "```\n" + strings.Repeat("*a_ ", 3000) + "\n```\n", "", 0},
		{"link destinations in one run", "intro\n" + strings.Repeat("[x](", 129), "too-many-link-openers", 5},
		{"angle destinations on one line", strings.Repeat("[x](< ", 129), "too-many-link-openers", 4},
		{"links apart", strings.Repeat("[x](y) ", 5000), "", 0},
		{"a row of badges", strings.Repeat("[![b](https://img.example/b.svg)](https://example.org)", 20), "", 0},
		{"wide header over one-cell rows", wide, "too-many-table-cells", 5 + 49},
		{"a dense table under the limit", dense(20_000), "", 0},
		{"a dense table over the limit", dense(25_000), "too-many-table-cells", 4 + 2 + 24_998},
		{"rows without pipes are rows", "| a | b |\n|---|---|\n" + strings.Repeat("x\n", 50_000), "too-many-table-cells", 6 + 49_998},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := head + tt.body + "\n"
			line, code, msg := CheckInline(text, len("# T\nSource: https://e.org/x\n"), Limits{})
			if code != tt.code || line != tt.line {
				t.Errorf("got line %d %q (%s), want line %d %q", line, code, msg, tt.line, tt.code)
			}
			if code != "" && !strings.Contains(msg, "limits.max_") {
				t.Errorf("got %q, want the limit named", msg)
			}
		})
	}
}
