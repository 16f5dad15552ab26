// Package diagnostics is a snapshot's diagnostics: every one its run found,
// a JSON line each in diagnostics.jsonl (File), written as the run goes
// (Writer: the run's own first, then the documents' in (doc_path, line)
// order, so any number of workers and a sharded run's merge write the same
// bytes) and read back in that order (Reader); and what report.json says of
// them (Digest): how many of each code and severity, and the first
// MaxSampled of each code. Nothing here holds more than the sample and the
// counts, however many diagnostics a corpus has.
package diagnostics
