// Package buildinfo is the tool's version as --version prints it and a
// manifest records it: the version set at build time, or the module's when
// go install …@vX.Y.Z built it, with the VCS revision, its time and a
// "+dirty" mark from the build info the Go toolchain embeds.
package buildinfo

import (
	"regexp"
	"runtime/debug"
)

// Dev is the version of a build that was given none.
const Dev = "0.1.0-dev"

// Version is version (set at build time, or Dev) with the VCS revision, its
// time and a "+dirty" mark when the tree had uncommitted changes, from the
// build info the Go toolchain embeds: what --version prints and the manifest
// records.
func Version(version string) string {
	v := version
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if m := bi.Main.Version; version == Dev && m != "" && m != "(devel)" && !pseudoVersion.MatchString(m) {
		v = m // go install module@vX.Y.Z
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v += " (" + rev
	if dirty {
		v += "+dirty"
	}
	if at != "" {
		v += ", " + at
	}
	return v + ")"
}

// pseudoVersion matches the version Go makes up for an untagged commit
// (v0.0.0-20261201075336-9dd7f61111dd): the revision says it better.
var pseudoVersion = regexp.MustCompile(`\d{14}-[0-9a-f]{12}`)
