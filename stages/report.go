package stages

import (
	"github.com/ocean-safety/ingest/schema"
)

// Reporter receives a run's progress and diagnostics as they happen. The
// library never prints; the CLI decides how these look (a live line on a
// terminal, plain lines in CI).
//
// A run calls it from several goroutines at once (each stream reports its
// own stage), so an implementation must be safe for concurrent use; calls
// for one stage come from one goroutine, in order.
type Reporter interface {
	// Progress says done of total items went through a stage (total is -1
	// when unknown).
	Progress(stage string, done, total int)
	Diagnostic(d schema.Diagnostic)
}

// The stages a run reports progress of: documents parsed and chunked,
// documents enriched (headers and fields), chunks embedded and written.
const (
	StageParsed   = "parsed"
	StageEnriched = "enriched"
	StageWritten  = "written"
)

// Discard is a Reporter that drops everything.
var Discard Reporter = discard{}

type discard struct{}

func (discard) Progress(string, int, int)    {}
func (discard) Diagnostic(schema.Diagnostic) {}
