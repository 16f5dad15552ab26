// Package snapshot is how a run meets the work of earlier runs: the previous
// snapshot read in step with the corpus and the cache keys its headers and
// vectors are reused under, the journal that lets a killed run resume
// without repeating a paid-for call, the audit log carried from snapshot to
// snapshot, and the build id that tells an unchanged tool. Inspect reads a
// snapshot back for ingest inspect: its manifest and the counts of its rows.
package snapshot
