// Package ociimage builds ingest's container image from a release's static
// binaries without a container daemon (go-containerregistry): one layer
// with the binary, its licences, notices and SBOM in /usr/share/doc/ingest,
// a CA bundle from a pinned module (never the build machine's) and a
// non-root user, OCI labels naming the source, revision, version and
// licence, and every timestamp the commit's, so one commit builds to one
// digest on any machine.
package ociimage
