package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
)

// jsonFlag is --json: the command's result as one JSON document on stdout,
// for machines; its shape is in the usage and in README.md.
func jsonFlag(shape string) cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print " + shape + " on stdout"}
}

// writeJSON writes v as indented JSON and a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// isSnapshotDir refuses, with a message that says what it is, a folder
// that is not a snapshot, before a reader trips on it.
func isSnapshotDir(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: no such snapshot folder", dir)
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("%s: a file, not a snapshot folder", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, artifacts.ManifestFile)); err != nil {
		if latest, lerr := artifacts.Latest(dir); lerr == nil {
			return fmt.Errorf("%s: a publish folder, not a snapshot; its latest snapshot is %s", dir, latest)
		}
		return fmt.Errorf("%s: not an ingest snapshot (no %s)", dir, artifacts.ManifestFile)
	}
	return nil
}
