// Package artifacts owns the files of a snapshot: chunks.parquet (written
// streaming, byte-identical for identical input; read back whole, a row at
// a time, or a document at a time with a Cursor; dumped in a canonical text
// form for golden tests), the manifest (its counts, Calls.Add), the run
// report (its bounded lists, Report.Merge), a part's documents list
// (documents.jsonl, ShardInfo), and the rule every reader of them keeps: a
// snapshot file is read only if it is a regular file, and never past the
// size it had when opened (OpenRegular, Describe); a snapshot read back for
// a person (Inspect, EachThreshold); its name (SnapshotName); and the audit
// log carried from snapshot to snapshot (Audit). Parquet stays inside this
// package.
//
// Whether a snapshot is what its manifest says is package artifacts/verify's,
// what changed between two is artifacts/diff's; where snapshots live and how
// they are published is package publish's.
package artifacts
