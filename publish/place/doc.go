// Package place is where a command reads and writes, as its command line
// names it: a folder on this machine, or a bucket URL (s3://, gs://,
// azblob://, file://). It is the one place that tells the two apart: it
// builds a run's publish.Target (Target, once, at the edge), makes a
// snapshot argument a local folder (Snapshot, Folder, Trusted, Part,
// PartDirs, and Previous for --prev: a bucket's is downloaded), compares two
// of them (Compare), places a sharded run's parts (Parts,
// RemoveParts), and lists, reports and keeps state beside published
// snapshots (List, PutDiff and WriteDiff, the --diff report, StateRoot).
// It reads no environment: what a bucket's work folder is comes in Work.
package place
