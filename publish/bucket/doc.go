// Package bucket publishes snapshots to an object store through gocloud.dev
// (s3://, gs://, azblob://, file://): every file under the snapshot's name
// with a conditional create, read back and checked, then latest.json last; a
// lease so one run writes a prefix at a time; pruning beyond --keep; and the
// download of a published snapshot for reuse, verify, inspect and diff. The
// cloud SDKs stay here: the rest of the module links none of them.
package bucket
