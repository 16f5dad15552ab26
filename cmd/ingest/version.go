package main

import (
	"fmt"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/buildinfo"
	"github.com/urfave/cli/v3"
)

// version is set at build time with -ldflags "-X main.version=…"; go
// install …@vX.Y.Z sets it through the build info instead.
var version = buildinfo.Dev

func init() {
	// -v is --verbose where a command has it; the version is --version only.
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version, VCS revision and build date"}
	cli.VersionPrinter = func(cmd *cli.Command) { fmt.Fprintln(cmd.Root().Writer, "ingest", cmd.Root().Version) }
}

// buildVersion is what --version prints and the manifest records: version
// with the VCS revision the toolchain embedded (buildinfo.Version).
func buildVersion() string { return buildinfo.Version(version) }
