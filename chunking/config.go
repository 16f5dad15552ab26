package chunking

import (
	"errors"

	"github.com/ocean-safety/ingest/schema"
)

// DefaultMax is the default chunk budget in characters: a paragraph or two,
// what a small reader model quotes well.
const DefaultMax = 700

// AutoMin is chunk.min when the config names none: a quarter of chunk.max,
// whatever its unit (175 characters of the default 700; 128 of 512 tokens).
// A piece under a quarter of the budget is a fragment (a lead-in, a line of
// "TBD", a heading with one sentence), and merging such pieces still leaves
// room in the chunk they join.
const AutoMin = -1

// Config is the chunk budget.
type Config struct {
	Unit    string `yaml:"unit" json:"unit"`       // chars | tokens
	Max     int    `yaml:"max" json:"max"`         // hard budget, but a single sentence is never cut
	Min     int    `yaml:"min" json:"min"`         // soft: pieces under it merge with a neighbour (AutoMin: max/4; 0: never)
	Overlap int    `yaml:"overlap" json:"overlap"` // whole trailing sentences of the previous chunk, up to this
}

// DefaultConfig is the budget a run gets when nothing is configured.
func DefaultConfig() Config { return Config{Unit: "chars", Max: DefaultMax, Min: AutoMin} }

// Resolved is c with AutoMin replaced by the minimum it stands for: the
// form a chunker uses and a config hash is taken of.
func (c Config) Resolved() Config {
	if c.Min == AutoMin {
		c.Min = c.Max / 4
	}
	return c
}

// Validate reports every bad setting at once, each a *schema.SettingError
// naming its config key.
func (c Config) Validate() error {
	var errs []error
	bad := func(key, format string, a ...any) { errs = append(errs, schema.Setting(key, format, a...)) }
	if c.Unit != "chars" && c.Unit != "tokens" {
		bad("chunk.unit", "%q: want chars or tokens", c.Unit)
	}
	if c.Max < 1 {
		bad("chunk.max", "%d: want at least 1", c.Max)
	}
	if c.Overlap < 0 || c.Overlap >= c.Max {
		bad("chunk.overlap", "%d: want 0 ≤ overlap < max (%d)", c.Overlap, c.Max)
	}
	if c.Min != AutoMin && (c.Min < 0 || c.Min > c.Max) {
		bad("chunk.min", "%d: want 0 ≤ min ≤ max (%d), or leave it out for a quarter of max", c.Min, c.Max)
	}
	return errors.Join(errs...)
}
