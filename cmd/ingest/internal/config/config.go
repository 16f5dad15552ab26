package config

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"

	"github.com/ocean-safety/ingest/deliver/push/pushconf"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/search"
	"github.com/ocean-safety/ingest/stages/settings"
)

// File is what a config file holds: the settings of a run, where it writes
// and reuses from, and how the collection is queried.
type File struct {
	Run       settings.Config   `yaml:",inline"`
	Out       string            `yaml:"out"`
	Prev      string            `yaml:"prev"`
	Retrieval search.Settings   `yaml:"retrieval"`
	Push      pushconf.Settings `yaml:"push"`
	Models    Models            `yaml:",inline"`
	// set holds the keys the file sets (dotted: chunk.max), by line.
	set  map[string]int
	path string // the file's, as given
}

// Where is "path:line" of the file's line that sets key, "" when the file
// does not set it.
func (f File) Where(key string) string {
	if n := f.Line(key); n > 0 && f.path != "" {
		return fmt.Sprintf("%s:%d", f.path, n)
	}
	return ""
}

// Keys are the keys the file sets, dotted.
func (f File) Keys() []string {
	out := make([]string, 0, len(f.set))
	for k := range f.set {
		out = append(out, k)
	}
	return out
}

// IsSet reports whether the file sets key (dotted: chunk.max), whatever
// the value: a default spelt out is set too.
func (f File) IsSet(key string) bool {
	_, ok := f.set[key]
	return ok
}

// Default is the configuration with no file.
func Default() File {
	return File{Run: settings.DefaultConfig(), Retrieval: search.DefaultSettings(), Push: pushconf.DefaultSettings(), Models: DefaultModels()}
}

// Read reads a YAML config file over Default. Unknown keys are errors that
// name their line: a misspelt key must not be silently ignored. A file with
// nothing but comments means every default; a second YAML document is an
// error, not silently dropped.
func Read(path string) (File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Default(), fmt.Errorf("config: %w", err)
	}
	f, err := Parse(b)
	f.path = path
	if err != nil {
		// each line of a list of errors names the file
		return f, errors.New("config " + path + ": " + strings.ReplaceAll(err.Error(), "\nline ", "\nconfig "+path+": line "))
	}
	return f, nil
}

// Parse is Read for bytes already in memory.
func Parse(b []byte) (File, error) {
	f := Default()
	ast, err := parser.ParseBytes(b, 0)
	if err != nil {
		return f, errors.New(yaml.FormatError(err, false, false))
	}
	var docs int
	for _, d := range ast.Docs {
		if d.Body == nil {
			continue // empty, comments only, or a bare ---
		}
		docs++
		if docs > 1 {
			return f, fmt.Errorf("line %d: a second YAML document; a config file holds one", d.Body.GetToken().Position.Line)
		}
	}
	if docs == 0 {
		return f, nil
	}
	f.set = keys(ast)
	if err := unknownKeys(f.set); err != nil {
		return f, err
	}
	if err := yaml.UnmarshalWithOptions(b, &f, yaml.Strict()); err != nil {
		return f, errors.New(yaml.FormatError(err, false, false))
	}
	if err := f.Run.CheckSpelled(f.IsSet); err != nil {
		var se *schema.SettingError
		if errors.As(err, &se) {
			return f, fmt.Errorf("line %d: %w", f.set[se.Key], err)
		}
		return f, err
	}
	return f, nil
}

// Validate reports every bad setting at once, each a *schema.SettingError
// naming its key.
func (f File) Validate() error {
	return errors.Join(f.Run.Validate(), f.Retrieval.Validate(), f.Push.Validate())
}
