// Package bucket publishes snapshots to an object store: every file under
// the snapshot's name with a conditional create, read back and checked,
// then latest.json last; a lease so one run writes a prefix at a time;
// pruning beyond --keep; and the download of a published snapshot for
// reuse, verify, inspect and diff.
//
// A store is the small interface Objects (objects.go), one file a scheme:
// s3:// and every S3-compatible server through minio-go (s3.go), file:// a
// folder (folder.go), mem:// for tests (mem.go); gs:// and azblob://
// through gocloud.dev only in a build with -tags cloud (cloud.go), which
// the default build leaves out for the size of their SDKs (nocloud.go
// says so to whoever asks for one). The object-store clients stay here:
// the rest of the module links none of them.
package bucket
