// Package stages runs the ingest pipeline: Run takes a settings.Config
// (what shapes the snapshot and how hard to work), a publish.Target (where
// to read and write) and Options (what is plugged in: header writer,
// embedder, reporter), and publishes one snapshot or nothing; Plan counts
// what a run would pay for (package estimate) without running it.
//
// The stages themselves live in their own packages (chunking parses and
// chunks, quantities normalises, models writes headers and embeds, reuse
// resolves what earlier runs already paid for, dispatch admits header
// calls to their servers); this package holds the per-document flow
// (document.go), the tallies a run keeps, the closing files (Seal, for a
// run and a merge of parts alike), and the runner (runner.go), the only
// code in the module that starts goroutines.
package stages
