package search

import (
	"errors"

	"github.com/ocean-safety/ingest/schema"
)

// Settings are a collection's query-time settings, the retrieval section of
// the config file. They do not shape a snapshot, so they are not in its
// config hash.
type Settings struct {
	Mode string `yaml:"mode"`  // hybrid (BM25 and vectors fused) | naive (vectors only) | bm25 | vector
	TopK int    `yaml:"top_k"` // chunks a question gets
}

// maxTopK bounds top_k: far more chunks than any reader reads for one
// question, so an extra zero or two is caught at start.
const maxTopK = 10_000

// DefaultSettings are the retrieval settings when none are configured.
func DefaultSettings() Settings { return Settings{Mode: string(DefaultMode), TopK: DefaultTopK} }

// Options turns the settings into search options; "naive", the
// collection setting's name for vector-only retrieval, is ModeVector.
func (s Settings) Options() (Options, error) {
	name := s.Mode
	if name == "naive" {
		name = string(ModeVector)
	}
	var errs []error
	mode, err := ParseMode(name)
	if err != nil {
		errs = append(errs, schema.Setting("retrieval.mode", "%q: want hybrid, naive, bm25 or vector", s.Mode))
	}
	switch {
	case s.TopK < 1:
		errs = append(errs, schema.Setting("retrieval.top_k", "%d: want at least 1", s.TopK))
	case s.TopK > maxTopK:
		errs = append(errs, schema.Setting("retrieval.top_k", "%d: want at most %d", s.TopK, maxTopK))
	}
	return Options{Mode: mode, K: s.TopK}, errors.Join(errs...)
}

// Validate reports every bad setting at once.
func (s Settings) Validate() error {
	_, err := s.Options()
	return err
}
