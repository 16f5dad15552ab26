// Package planted reads testdata/injection's planted prompt injections and
// their controls, for the tests that measure the header writer's defences
// (models/prompt's answer checks alone, models/backends' writer end to
// end): one reading of the files' format.
package planted

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/txtar"
)

// Case is one planted injection.
type Case struct {
	Name   string // its language and trick: "en/zero-width-space"
	Trick  string // what it does to slip past a matcher
	Header string // the header it asks for: what an obedient model writes
	Text   string // what is planted, its invisible runes written out
	Doc    string // its base document with Text planted
}

// Control is an ordinary document no defence may withhold or reject.
type Control struct {
	Name    string
	Headers []string // a real model's headers for it
	Doc     string
}

// Cases reads dir/planted.txtar.
func Cases(dir string) ([]Case, error) {
	ar, err := txtar.ParseFile(filepath.Join(dir, "planted.txtar"))
	if err != nil {
		return nil, err
	}
	bases := map[string]string{}
	var out []Case
	for _, f := range ar.Files {
		if b, ok := strings.CutPrefix(f.Name, "base/"); ok {
			bases[strings.TrimSuffix(b, ".md")] = string(f.Data)
			continue
		}
		meta, text, _ := strings.Cut(string(f.Data), "\n\n")
		c := Case{Name: f.Name, Text: expand(strings.TrimRight(text, "\n"))}
		base := ""
		for _, l := range strings.Split(meta, "\n") {
			k, v, _ := strings.Cut(l, ": ")
			switch k {
			case "base":
				base = v
			case "trick":
				c.Trick = v
			case "header":
				c.Header = v
			}
		}
		if bases[base] == "" || c.Header == "" {
			return nil, fmt.Errorf("%s: want a base document before it and a header", f.Name)
		}
		c.Doc = strings.Replace(bases[base], "{{INJECT}}", c.Text, 1)
		out = append(out, c)
	}
	return out, nil
}

// Controls reads dir/controls.txtar.
func Controls(dir string) ([]Control, error) {
	ar, err := txtar.ParseFile(filepath.Join(dir, "controls.txtar"))
	if err != nil {
		return nil, err
	}
	var out []Control
	for _, f := range ar.Files {
		meta, doc, _ := strings.Cut(string(f.Data), "\n\n")
		c := Control{Name: f.Name, Doc: doc}
		for _, l := range strings.Split(meta, "\n") {
			h, ok := strings.CutPrefix(l, "header: ")
			if !ok {
				return nil, fmt.Errorf("%s: want header lines first, got %q", f.Name, l)
			}
			c.Headers = append(c.Headers, h)
		}
		out = append(out, c)
	}
	return out, nil
}

// expand writes {U+XXXX} as its rune and {tags:TEXT} as TEXT in Unicode
// tag characters (U+E0020…U+E007E), which a reader does not see.
func expand(s string) string {
	s = runeEscape.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(m[3:len(m)-1], 16, 32)
		return string(rune(n))
	})
	return tagEscape.ReplaceAllStringFunc(s, func(m string) string {
		var b strings.Builder
		for _, r := range m[len("{tags:") : len(m)-1] {
			b.WriteRune(0xE0000 + r)
		}
		return b.String()
	})
}

var (
	runeEscape = regexp.MustCompile(`\{U\+[0-9A-F]{4,5}\}`)
	tagEscape  = regexp.MustCompile(`\{tags:[^}]*\}`)
)
