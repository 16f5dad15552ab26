package markdown

import (
	"reflect"
	"strings"
	"testing"
)

// TestMkdocsNesting: a MkDocs admonition or content tab opening in the body
// of another (indented four spaces more) is read as one: its title line is
// blanked and its body moves left by its depth, so neither a marker nor an
// indented-code body is left; a fence in a body keeps what looks like one.
func TestMkdocsNesting(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		want  []string // the cleaned lines, trailing blanks trimmed
		kinds []string // the admonitions read, in order
		tabs  []string // the tabs' titles
	}{
		{
			name:  "note in an example (Traefik's expose/overview.md)",
			body:  "??? example \"Using HTTP (h2c)\"\n\n    Use h2c.\n\n    !!! note\n        Labels set the scheme.\n\nAfter.\n",
			want:  []string{"", "", "Use h2c.", "", "", "Labels set the scheme.", "", "After."},
			kinds: []string{"example", "note"},
		},
		{
			name:  "tab in an admonition, note in the tab",
			body:  "!!! tip\n    === \"Docker\"\n        In Docker.\n\n        !!! warning\n            Careful.\n    Back in the tip.\n",
			want:  []string{"", "", "In Docker.", "", "", "Careful.", "Back in the tip."},
			kinds: []string{"tip", "warning"},
			tabs:  []string{"Docker"},
		},
		{
			name:  "a marker in a fence in a body is the code's",
			body:  "!!! example\n    ```md\n    !!! note\n        Body.\n    ```\n",
			want:  []string{"", "```md", "!!! note", "    Body.", "```"},
			kinds: []string{"example"},
		},
		{
			name:  "a marker indented as code in a body is the code's",
			body:  "!!! example\n    Text.\n\n        !!! note\n",
			want:  []string{"", "Text.", "", "    !!! note"},
			kinds: []string{"example"},
		},
		{
			name:  "a collapsed ???- details and icons in a tab's title (copilot-cli, sing-box)",
			body:  "???- note \"Sample template\"\n    In it.\n\n=== \":material-card-remove: Deprecated\"\n\n    Old.\n",
			want:  []string{"", "In it.", "", "", "", "Old."},
			kinds: []string{"note"},
			tabs:  []string{"Deprecated"},
		},
		{
			name:  "an admonition in a list item's content (copilot-cli's getting-started/verify.en.md)",
			body:  "1. Verify the signature.\n\n    ```\n    gpg --verify\n    ```\n\n    !!! warning\n        The warning is expected.\n\n    Then go on.\n2. Next.\n",
			want:  []string{"1. Verify the signature.", "", "    ```", "    gpg --verify", "    ```", "", "", "    The warning is expected.", "", "    Then go on.", "2. Next."},
			kinds: []string{"warning"},
		},
		{
			name: "outside a list, an indented title is code",
			body: "Text.\n\n    !!! note\n        Body.\n\n- item\n\nBack.\n\n    !!! tip\n",
			want: []string{"Text.", "", "    !!! note", "        Body.", "", "- item", "", "Back.", "", "    !!! tip"},
		},
		{
			name:  "a line back at the outer depth closes the inner one",
			body:  "!!! note\n    !!! tip\n        Inner.\n    Outer.\nOut.\n",
			want:  []string{"", "", "Inner.", "Outer.", "Out."},
			kinds: []string{"note", "tip"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cleanAll(tt.body)
			var got []string
			for _, l := range strings.Split(strings.TrimSuffix(string(c.b), "\n"), "\n") {
				got = append(got, strings.TrimRight(l, " "))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got lines %q, want %q", got, tt.want)
			}
			var kinds, tabs []string
			for _, a := range c.admonitions {
				kinds = append(kinds, a.kind)
			}
			for _, a := range c.tabs {
				tabs = append(tabs, a.title)
			}
			if !reflect.DeepEqual(kinds, tt.kinds) || !reflect.DeepEqual(tabs, tt.tabs) {
				t.Errorf("got admonitions %q and tabs %q, want %q and %q", kinds, tabs, tt.kinds, tt.tabs)
			}
		})
	}
}

// TestIcons: MkDocs Material's icon shortcodes go (they render as a
// picture); a colon word of another kind, and one in code, stays.
func TestIcons(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"testcontainers-go's version tag", `Since <span class="tc-version">:material-tag: v0.37.0</span>`, "Since v0.37.0"},
		{"octicons with a size", "Done :octicons-check-16: here", "Done here"},
		{"fontawesome brands", ":fontawesome-brands-github: GitHub", "GitHub"},
		{"not an icon set", "Use :param: and :smile: as written", "Use :param: and :smile: as written"},
		{"in code it is the code's", "Write `:material-tag:` for a tag", "Write `:material-tag:` for a tag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cleanAll(tt.body)
			if got := words(c); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDirectiveOrAdmonition: "::: name" alone on its line is a
// mkdocstrings directive (its name kept, its ":::" gone), unless the name
// is an admonition's type: then it opens that admonition and the word goes.
func TestDirectiveOrAdmonition(t *testing.T) {
	tests := []struct {
		name, body, want string
		kinds            []string
	}{
		{"a module", "::: fastapi.APIRouter\n    options:\n      members: [get]\n", "fastapi.APIRouter", nil},
		{"a one-word module", "::: httpx\n", "httpx", nil},
		{"an admonition with a space (OPA's kubernetes/tutorial.md)", "::: tip\nKubernetes does not guarantee consistency.\n:::\n", "Kubernetes does not guarantee consistency.", []string{"tip"}},
		{"its type in capitals", "::: Warning\nCareful.\n:::\n", "Careful.", []string{"warning"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cleanAll(tt.body)
			if got := words(c); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			var kinds []string
			for _, a := range c.admonitions {
				kinds = append(kinds, a.kind)
			}
			if !reflect.DeepEqual(kinds, tt.kinds) {
				t.Errorf("got admonitions %q, want %q", kinds, tt.kinds)
			}
		})
	}
}
