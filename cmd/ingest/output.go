package main

import (
	"github.com/urfave/cli/v3"
)

// jsonFlag is --json: the command's result as one JSON document on stdout,
// for machines; its shape is in the usage and in README.md.
func jsonFlag(shape string) cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print " + shape + " on stdout"}
}
