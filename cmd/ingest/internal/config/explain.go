package config

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Setting is one key of an effective configuration and where its value
// came from, for ingest config.
type Setting struct {
	Key    string `json:"key"` // dotted: chunk.max
	Value  any    `json:"value"`
	Text   string `json:"-"` // Value as YAML writes it on one line: 700, "", [a, b]
	Depth  int    `json:"-"` // how deep Key is nested
	Source string `json:"source"`
	// Where says which: the file and line, the environment variable, the
	// flag.
	Where string `json:"where,omitempty"`
}

// The sources of a setting, weakest first.
const (
	FromDefault = "default"
	FromFile    = "file"
	FromEnv     = "env"
	FromFlag    = "flag"
)

// Origin is where an override came from.
type Origin struct{ Source, Where string }

// leafMaps are settings whose value is a map: shown whole, not as keys.
var leafMaps = map[string]bool{"diagnostics.paths": true, "source_url_templates": true}

// Explain lists f's settings in the order of the file format, each with
// its source: over (the keys the environment and the flags set), else the
// file at path whose bytes are raw (with the line), else the default.
// Mapping keys are listed too, with no value, so the list reads as YAML.
func Explain(f File, path string, raw []byte, over map[string]Origin) ([]Setting, error) {
	b, err := yaml.Marshal(f)
	if err != nil {
		return nil, err
	}
	eff, err := parser.ParseBytes(b, 0)
	if err != nil {
		return nil, err
	}
	inFile := map[string]int{}
	if len(raw) > 0 {
		file, err := parser.ParseBytes(raw, 0)
		if err != nil {
			return nil, err
		}
		inFile = keys(file)
	}
	var out []Setting
	for _, d := range eff.Docs {
		walk(d.Body, "", 0, func(key string, depth int, _ ast.Node, v ast.Node) {
			s := Setting{Key: key, Depth: depth, Source: FromDefault}
			if m, ok := v.(*ast.MappingNode); ok && !leafMaps[key] && len(m.Values) > 0 {
				s.Source = "" // a heading: its keys follow
				out = append(out, s)
				return
			}
			s.Text = strings.TrimSpace(flow(v))
			_ = yaml.Unmarshal([]byte(s.Text), &s.Value)
			if line, ok := inFile[key]; ok {
				s.Source, s.Where = FromFile, fmt.Sprintf("%s:%d", path, line)
			}
			if o, ok := over[key]; ok {
				s.Source, s.Where = o.Source, o.Where
			}
			out = append(out, s)
		})
	}
	return out, nil
}

// keys are the keys a parsed file sets, dotted, with their lines.
func keys(file *ast.File) map[string]int {
	out := map[string]int{}
	for _, d := range file.Docs {
		walk(d.Body, "", 0, func(key string, _ int, n ast.Node, _ ast.Node) {
			out[key] = n.GetToken().Position.Line
		})
	}
	return out
}

// walk calls fn for every key of a mapping, depth first, in order.
func walk(n ast.Node, prefix string, depth int, fn func(key string, depth int, keyNode, value ast.Node)) {
	m, ok := n.(*ast.MappingNode)
	if !ok {
		if mv, ok := n.(*ast.MappingValueNode); ok { // a mapping of one key
			m = &ast.MappingNode{Values: []*ast.MappingValueNode{mv}}
		} else {
			return
		}
	}
	for _, mv := range m.Values {
		key := prefix + mv.Key.String()
		fn(key, depth, mv.Key, mv.Value)
		if !leafMaps[key] {
			walk(mv.Value, key+".", depth+1, fn)
		}
	}
}

// flow is a value as one line of YAML.
func flow(v ast.Node) string {
	var x any
	if err := yaml.Unmarshal([]byte(v.String()), &x); err != nil {
		return v.String()
	}
	b, err := yaml.MarshalWithOptions(x, yaml.Flow(true))
	if err != nil {
		return v.String()
	}
	return string(b)
}
