// Package artifacts owns everything ingest puts on disk: the chunks.parquet
// snapshot (written streaming, byte-identical for identical input), the
// manifest and the run report, and the atomic publish that swaps a finished
// snapshot into place. It reads them back too, so inspect and diff work
// without the pipeline.
package artifacts
