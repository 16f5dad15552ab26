package console

import (
	"io"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/thresholds"
)

// PrintThresholds writes the thresholds each passes on: the Markdown
// proposal (thresholds.md's), or with asJSON every one, sorted, as a JSON
// array.
func PrintThresholds(w io.Writer, asJSON bool, each func(func(schema.Threshold)) error) error {
	if !asJSON { // the proposal, in memory bounded by its values
		var p thresholds.Proposal
		err := each(p.Add)
		if err == nil {
			_, err = p.WriteTo(w)
		}
		return err
	}
	ts := []schema.Threshold{}
	if err := each(func(t schema.Threshold) { ts = append(ts, t) }); err != nil {
		return err
	}
	thresholds.Sort(ts)
	return WriteJSON(w, ts)
}
