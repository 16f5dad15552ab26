// Package release builds ingest's release from a clone of one commit: for
// each platform a static binary in an archive with LICENSE, NOTICE,
// README.md, THIRD_PARTY_LICENSES (the licence files of everything linked)
// and its CycloneDX SBOM; the SBOMs also beside the archives; and
// SHA256SUMS. The same commit and Go toolchain give the same bytes on any
// machine: nothing of the machine (its paths, clock, GOFLAGS, CPU level)
// reaches them, and a build setting that would is refused. The image is
// built from the linux archives.
package release
