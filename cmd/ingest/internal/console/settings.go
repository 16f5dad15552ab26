package console

import (
	"fmt"
	"io"
	"strings"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/schema"
)

// PrintSettings prints the effective settings as YAML, each leaf with its
// source: the config file at path (empty: none) over the defaults, for the
// corpus folder corpusDir.
func PrintSettings(w io.Writer, path, corpusDir string, settings []config.Setting) {
	from := "the defaults"
	if path != "" {
		from += ", " + path
	}
	fmt.Fprintf(w, "# what ingest index runs with: %s, the environment and the flags, each over the one before\n", from)
	for _, s := range settings {
		name := s.Key[strings.LastIndexByte(s.Key, '.')+1:]
		line := strings.Repeat("  ", s.Depth) + name + ":"
		if s.Source == "" { // a mapping: its keys follow
			fmt.Fprintln(w, line)
			continue
		}
		line += " " + s.Text
		note := s.Source
		if s.Where != "" {
			note += " " + s.Where
		}
		switch {
		case s.Key == "chunk.min" && s.Text == "-1":
			// Left out, and shown as a comment: read back as a config file,
			// the output leaves it out too (a -1 written is refused).
			line = strings.Repeat("  ", s.Depth) + "# " + name + ": a quarter of chunk.max"
			note += " (left out)"
		case s.Key == "source_label" && s.Text == `""` && corpusDir != "":
			note += " (left out: " + corpus.DefaultSourceLabel(corpusDir) + ", from the corpus folder)"
		}
		fmt.Fprintf(w, "%-44s # %s\n", line, note)
	}
}

// DescribeSettings is the bad settings in err, a line each, each named by
// the flag that sets it where flags has one (with its config key when the
// names differ) and by its config key otherwise.
func DescribeSettings(err error, flags map[string]string) string {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var lines []string
		for _, e := range j.Unwrap() {
			lines = append(lines, DescribeSettings(e, flags))
		}
		return strings.Join(lines, "\n")
	}
	if se, ok := err.(*schema.SettingError); ok {
		name := se.Key
		if flag, ok := flags[se.Key]; ok {
			name = flag
			if strings.HasPrefix(flag, "--") && flag != "--"+strings.ReplaceAll(se.Key, "_", "-") {
				name += " (" + se.Key + ")" // a config key of another name
			}
		}
		return name + ": " + se.Err.Error()
	}
	return err.Error()
}

// WriteSettingsJSON writes the settings that are values (not mappings) as
// a JSON array of {key, value, source, where}.
func WriteSettingsJSON(w io.Writer, settings []config.Setting) error {
	var leaves []config.Setting
	for _, s := range settings {
		if s.Source != "" {
			leaves = append(leaves, s)
		}
	}
	return WriteJSON(w, leaves)
}
