package markdown

import "testing"

// TestMDXStatementEnd: an import or export over lines ends where the
// statement does, and one that never ends, or is not one, is left alone.
func TestMDXStatementEnd(t *testing.T) {
	tests := []struct {
		name, body string
		want       int // the end's offset, -1 for none
	}{
		{"an import list", "import {\n  Tabs,\n  TabItem as Item,\n} from '@theme/Tabs';\nText.", len("import {\n  Tabs,\n  TabItem as Item,\n} from '@theme/Tabs';")},
		{"a default and a list", "import X, {\n  A } from \"x\" // why\n", len("import X, {\n  A } from \"x\" // why")},
		{"an export object", "export const meta = {\n  tags: ['a', 'b'],\n};\n\nText.", len("export const meta = {\n  tags: ['a', 'b'],\n};")},
		{"an export function with a blank line", "export function F() {\n\n  return 1;\n}\nText.", len("export function F() {\n\n  return 1;\n}")},
		{"brackets in strings do not count", "export const s = {\n  a: '}}}',\n};", len("export const s = {\n  a: '}}}',\n};")},
		{"a one-line export is mdxLineRe's", "export const a = {b: 1};\nText.", -1},
		{"an import broken by a blank line", "import {\n\n  A } from 'x';", -1},
		{"an import list with prose in it", "import {\nThis is prose.\n} from 'x';", -1},
		{"never closed", "export const a = {\n  b: 1,\nText goes on.", -1},
		{"prose", "Import the module first.", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mdxStatementEnd(tt.body, 0, tt.body[:lineEnd(tt.body, 0)]); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}
