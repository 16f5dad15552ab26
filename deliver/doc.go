// Package deliver is what every destination a snapshot is delivered to
// shares (pgsync's table, push's ingest API): the Destination interface
// (Plan, Deliver) and the Report each renders itself, as text and JSON;
// the snapshot opened as one delivers it — verified against its manifest,
// whole (a shard's part would delete the other parts' documents), of one
// tenant and one source label — read a row or a document at a time; and
// the ids every destination names a document version by (VersionID, from
// the namespace IDSpace). Package destinations opens a destination by its
// URL.
//
// It reads snapshots through artifacts and nothing else of the pipeline;
// each destination keeps its own transport and its own record of what it
// holds.
package deliver
