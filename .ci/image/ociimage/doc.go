// Package ociimage builds ingest's container image from its static
// binaries without a container daemon (go-containerregistry): one layer
// with the binary, the build machine's CA certificates and a non-root
// user, OCI labels naming the source, revision and version, and every
// timestamp the commit's, so one commit builds to one digest.
package ociimage
