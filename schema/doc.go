// Package schema holds the records that flow between the stages of ingest and
// into its artifacts: documents, chunks, quantities, thresholds and
// diagnostics, with the closed enumerations they use.
//
// It imports nothing but the standard library, so every other package of the
// module (and any consumer) can depend on it.
package schema
