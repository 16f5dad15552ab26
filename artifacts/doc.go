// Package artifacts owns everything ingest puts on disk: the chunks.parquet
// snapshot (written streaming, byte-identical for identical input), the
// manifest, the run report and the audit log, and the atomic publish that
// swaps a finished snapshot into place. It reads them back too, so inspect,
// diff (a streaming merge of two snapshots by key, comparing content hashes)
// and verify (a snapshot against its manifest) work without the pipeline;
// and it keeps the publish layout: snapshots named for their content under
// one folder, a latest pointer moved atomically, the last N kept.
package artifacts
