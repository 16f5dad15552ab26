// Package merge merges the part snapshots of a sharded run (ingest index
// --shard K/N) into the snapshot one run of the whole corpus would have
// written, byte for byte: it checks the parts make one run (ErrMismatch),
// merges their rows a row group at a time, and closes the snapshot with
// the run's own stages.Seal. It is the only code that knows about parts.
package merge
