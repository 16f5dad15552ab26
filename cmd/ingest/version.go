package main

import (
	"fmt"
	"regexp"
	"runtime/debug"

	"github.com/urfave/cli/v3"
)

// version is set at build time with -ldflags "-X main.version=…"; go
// install …@vX.Y.Z sets it through the build info instead.
var version = "0.1.0-dev"

func init() {
	// -v is --verbose where a command has it; the version is --version only.
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version, VCS revision and build date"}
	cli.VersionPrinter = func(cmd *cli.Command) { fmt.Fprintln(cmd.Root().Writer, "ingest", cmd.Root().Version) }
}

// buildVersion is the version with the VCS revision, its time and a
// "+dirty" mark when the tree had uncommitted changes, from the build info
// the Go toolchain embeds: what --version prints and the manifest records.
func buildVersion() string {
	v := version
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if m := bi.Main.Version; version == "0.1.0-dev" && m != "" && m != "(devel)" && !pseudoVersion.MatchString(m) {
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
