// Package publish owns where snapshots live and how they are made public.
// A run's Target is an --out folder (OutTarget), a publish folder
// (PublishTarget) or a bucket prefix built in a local work folder
// (RemoteTarget, over a Remote that package publish/bucket implements), each in its
// own file; its Lock keeps one run at a time, and the Holder it records
// tells a live holder from a dead one (the process's start, behind build
// tags). A snapshot is built in a Staging folder, closed there by Seal (the
// closing files, the manifest last), verified through package artifacts/verify
// and made public by Commit: an atomic exchange of folders, or the publish
// layout, snapshots named for their content (artifacts.SnapshotName) under one
// folder, a latest link moved atomically (Latest, PromoteLatest), the last
// few kept (Prune), broken ones moved aside, never deleted (Quarantined).
// List says what a place holds. The snapshot's files themselves are
// package artifacts'.
package publish
