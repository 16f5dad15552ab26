package schema

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocsListEveryKind: the documents that name the kinds name exactly
// the table's, and say of each what its rules say, so that a new kind is a
// row of the table and these paragraphs, none forgotten.
func TestDocsListEveryKind(t *testing.T) {
	var all, needKind, beach, folders []string
	for _, k := range Kinds {
		r := k.Rules()
		all = append(all, string(k))
		if k != DefaultKind && r.Folder == "" {
			needKind = append(needKind, string(k)) // nothing else gives a document this kind
		}
		if r.Beach {
			beach = append(beach, string(k))
		}
		if r.Folder != "" {
			folders = append(folders, "`"+r.Folder+"/`", "`Kind: "+string(k)+"`")
		}
	}
	contract := readDoc(t, "../corpus/README.md")
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"corpus/README.md: the kinds cut", boldBullets(section(contract, "## The kinds and how they are cut")), all},
		{"corpus/README.md: Kind's values", ticked(cell(contract, "| `Kind` |", 3)), all},
		{"corpus/README.md: the kinds that need a Kind header", ticked(cell(contract, "| `Kind` |", 2)), needKind},
		{"corpus/README.md: the kinds that need a Beach", ticked(cell(contract, "| `Beach` |", 2)), beach},
		{"README.md: how each kind is cut", boldBullets(section(readDoc(t, "../README.md"), "## The corpus")), all},
		{"docs/consumers.md: kind's values", ticked(cell(readDoc(t, "../docs/consumers.md"), "| `kind` |", 4)), all},
	}
	for _, tt := range tests {
		got, want := unique(tt.got), unique(tt.want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, want)
		}
	}
	conventions := strings.Join(strings.Fields(section(contract, "## Folder conventions")), " ")
	for _, f := range append(folders, "defaults to `"+string(DefaultKind)+"`") {
		if !strings.Contains(conventions, f) {
			t.Errorf("corpus/README.md: got no %q in its folder conventions, want it", f)
		}
	}
}

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section is the text under heading, up to the next heading of its level
// or above; "" when there is no such heading.
func section(doc, heading string) string {
	lines := strings.Split(doc, "\n")
	i := slices.Index(lines, heading)
	if i < 0 {
		return ""
	}
	level := strings.Index(heading, " ")
	var out []string
	for _, l := range lines[i+1:] {
		if n := strings.Index(l, " "); n > 0 && n <= level && strings.Trim(l[:n], "#") == "" {
			break
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

var boldBullet = regexp.MustCompile(`(?m)^- \*\*([^*]+)\*\*:`)

// boldBullets are the names of a section's "- **name**:" bullets.
func boldBullets(text string) []string {
	var out []string
	for _, m := range boldBullet.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// cell is cell n (from 1) of the table row of doc that starts with prefix.
func cell(doc, prefix string, n int) string {
	for _, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(l, prefix) {
			if cs := strings.Split(l, "|"); n < len(cs) {
				return cs[n]
			}
		}
	}
	return ""
}

var tick = regexp.MustCompile("`([^`]+)`")

// ticked are the `quoted` words of text.
func ticked(text string) []string {
	var out []string
	for _, m := range tick.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

func unique(vs []string) []string {
	out := slices.Clone(vs)
	slices.Sort(out)
	return slices.Compact(out)
}
