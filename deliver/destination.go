package deliver

import (
	"context"
	"io"
)

// Destination is where a snapshot is delivered: a pgvector table
// (pgsync), an ingest API (push). It is built from its own settings,
// checked then, with nothing contacted; package destinations builds the
// one a URL names. It is given the snapshot already opened for delivery
// (Open: verified, whole, of one tenant and source label), so no
// destination skips those checks, and reads it as often as it needs.
//
// What one destination can do and another cannot (pgsync's migrations,
// push's resend of everything) is a setting of its own, given when it is
// built by the command that has the flag: no caller asks a Destination
// what it is.
type Destination interface {
	// Plan says what Deliver would do, changing nothing at the
	// destination.
	Plan(ctx context.Context, s *Snapshot) (Report, error)
	// Deliver makes the destination hold the snapshot's documents for its
	// tenant and source label, and no others of theirs. A failed delivery
	// may return, with its error, a Report of what it did (push: the
	// requests sent); otherwise the Report is nil.
	Deliver(ctx context.Context, s *Snapshot) (Report, error)
}

// Report is what a destination did, or would do, in its own words: as
// text for a person (WriteText), and as JSON for a machine, which is the
// value's own encoding (encoding/json: the document --json prints). A
// command prints any destination's report without knowing its kind.
type Report interface {
	// WriteText writes the report as lines of text.
	WriteText(w io.Writer) error
}
