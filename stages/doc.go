// Package stages runs the ingest pipeline: Run takes a Config (what shapes
// the snapshot and how hard to work), an depot.Target (where to read and
// write) and Options (what is plugged in: header writer, embedder, reporter),
// and publishes one snapshot or nothing.
//
// The stages themselves live in their own packages (chunking parses and
// chunks, models writes headers and embeds, snapshot reuses earlier work);
// this package holds the per-document flow (document.go), the normalise
// stage, the tallies a run keeps, and the runner (runner.go), the only code
// in the module that starts goroutines.
package stages
