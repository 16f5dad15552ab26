// Package stages is the ingest pipeline: parse, chunk, normalise, enrich
// (context headers), embed and write, each stage a plain type with a method
// that handles one item, and one runner (pipeline.go) that alone owns the
// goroutines, the channels and the order of the output.
//
// Markdown (goldmark), the concurrency library (conc) and model clients stay
// inside this package; artifacts on disk are the artifacts package's job.
package stages
