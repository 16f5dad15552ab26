package push

import "github.com/ocean-safety/ingest/deliver"

// Plan is what a push does, or would do (--plan): decided from the push
// state and the snapshot in one pass, so what it says is what is sent.
type Plan struct {
	Destination string              `json:"destination"` // credentials removed
	Tenant      string              `json:"tenant"`
	SourceLabel string              `json:"source_label"`
	Snapshot    deliver.SnapshotRef `json:"snapshot"`
	State       string              `json:"state"`     // the state folder
	Last        *LastPush           `json:"last_push"` // nil: never pushed
	Full        bool                `json:"full"`
	Documents   DocCounts           `json:"documents"`
	Deletes     DeleteCounts        `json:"deletes"`  // document versions
	Chunks      int                 `json:"chunks"`   // chunks sent
	Requests    RequestCounts       `json:"requests"` // batches, each one request when nothing is retried
	Bytes       int64               `json:"bytes"`    // request bodies, gzip
	Resume      Resume              `json:"resume"`
	// Warnings are what the push recovered from: a state or journal it
	// could not read, said once, in the report.
	Warnings []string `json:"warnings,omitempty"`
}

// LastPush is the last complete push, from the state.
type LastPush struct {
	Snapshot  string `json:"snapshot"`
	PushedAt  string `json:"pushed_at"`
	Documents int    `json:"documents"`
}

// DocCounts are the snapshot's documents against what the destination
// holds.
type DocCounts struct {
	Added       int `json:"added"`       // no version of it held
	Changed     int `json:"changed"`     // a new version: sent, then the old one deleted
	Regenerated int `json:"regenerated"` // same version, other chunks (embedder, headers, chunking): sent again
	Resent      int `json:"resent"`      // unchanged, sent again by --full
	Removed     int `json:"removed"`     // held, gone from the snapshot: deleted
	Unchanged   int `json:"unchanged"`
}

// DeleteCounts are the versions a push deletes, by why.
type DeleteCounts struct {
	Removed    int `json:"removed"`
	Superseded int `json:"superseded"`
}

// RequestCounts are a push's batches by operation.
type RequestCounts struct {
	Upsert int `json:"upsert"`
	Delete int `json:"delete"`
}

// Resume is what a push takes over from one that did not finish.
type Resume struct {
	Skipped int `json:"skipped_parts"` // parts acknowledged before: not sent again
	Tasks   int `json:"tasks"`         // tasks accepted before: polled, not sent again
	Lost    int `json:"lost_tasks"`    // tasks the destination no longer knew: their requests sent again
}

// Report is what a push did: its plan, the HTTP work, the time.
type Report struct {
	Plan
	Sent    counts  `json:"sent"`
	Seconds float64 `json:"seconds"`
	TraceID string  `json:"trace_id"`
}
