// Package verify checks a snapshot against its manifest. Verify runs
// every check (the manifest, each file's size and SHA-256, the schema
// version, every row read, their order, unique ids, content hashes,
// dimensions, counts and UTF-8) and reports them all, failed or not, so a
// person or a run sees every problem, not the first; VerifyFiles is the
// cheap part a reader runs before it trusts what it reads, a *BrokenError
// when it fails. It reads through package artifacts and writes nothing.
package verify
