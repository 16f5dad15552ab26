package markdown

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// linkDefShapes are link definitions and the lines that look like them.
var linkDefShapes = []string{
	"[a]: https://x\n",
	"text\n   [a]: https://x \"Title\"\n    [b]: https://y\n",
	"[a]:\n  https://x 'T'\n[b]:\n\n[c]: <https://z> (T)\n",
	"[a] : no\n[]: no\n[a]]: https://x\n[a[b]: https://x\n[a]: https://x trailing\n",
	"[link](https://x) starts a paragraph: with a colon\n[^1]: a footnote\n",
	"[a]: https://x\n[a]: https://y", // no final newline
	"\n[x]:\ty\n[y]:\n\t<z>\n",
}

// realBodies are the chunk fixtures and, when it is beside the clone, the
// otel corpus: real Markdown the fast paths must agree on.
func realBodies(t *testing.T) []string {
	t.Helper()
	var bodies []string
	for _, root := range []string{"../../testdata", "../../../shared/corpora/otel"} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".txtar")) {
				b, _ := os.ReadFile(path)
				bodies = append(bodies, string(b))
			}
			return nil
		})
	}
	if len(bodies) == 0 {
		t.Fatal("no fixture under ../testdata: the test would check only its own shapes")
	}
	return bodies
}

// TestLinkDefinitions: linkDefinitions finds what linkDefRe finds over the
// whole body, on the shapes above, the chunk fixtures and the otel corpus
// when it is beside the clone.
func TestLinkDefinitions(t *testing.T) {
	bodies := append(realBodies(t), linkDefShapes...)
	for _, body := range bodies {
		checkLinkDefinitions(t, body)
	}
}

// shortcodeShapes are Hugo shortcodes and text that looks like them.
var shortcodeShapes = []string{
	"{{< alert >}}Text{{< /alert >}}",
	"{{% param vers %}} and {{%/* not */%}} {{< figure src=\"a}b\" >}}",
	"{{< a }}> {{< b >}} {{{< c >}}} {{< d >}}}",
	"{{< multi\nline >}} {{< open and never closed",
	"{{<-x->}} {{%- y -%}} {{< z -}} {{< w >} }} }}",
	"{{}} {{<>}} {{%%}} {{<}}>}}",
}

// TestShortcodes: shortcodes finds what shortcodeRe finds over the whole
// body.
func TestShortcodes(t *testing.T) {
	bodies := append(realBodies(t), shortcodeShapes...)
	for _, body := range bodies {
		checkShortcodes(t, body)
	}
}

func FuzzShortcodes(f *testing.F) {
	for _, s := range shortcodeShapes {
		f.Add(s)
	}
	f.Fuzz(checkShortcodes)
}

func checkShortcodes(t *testing.T, body string) {
	got, want := shortcodes(body), shortcodeRe.FindAllStringIndex(body, -1)
	if len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
		t.Fatalf("%.200q: got %v, want %v", body, got, want)
	}
}

func FuzzLinkDefinitions(f *testing.F) {
	for _, s := range linkDefShapes {
		f.Add(s)
	}
	f.Fuzz(checkLinkDefinitions)
}

func checkLinkDefinitions(t *testing.T, body string) {
	got, want := linkDefinitions(body), linkDefRe.FindAllStringIndex(body, -1)
	if len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
		t.Fatalf("%.200q: got %v, want %v", body, got, want)
	}
}
