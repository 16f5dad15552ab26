package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/config"
	"github.com/ocean-safety/ingest/site"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "write a commented starter config for a docs folder (recognising Hugo, Docusaurus and MkDocs layouts and language folders)",
		ArgsUsage: "[DIR]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Value: "ingest.yaml", Usage: "the file to write (\"-\": stdout); an existing file is kept unless --force"},
			&cli.BoolFlag{Name: "force", Usage: "replace the output file if it exists"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			dir := "."
			switch cmd.Args().Len() {
			case 0:
			case 1:
				dir = cmd.Args().First()
			default:
				return usage("init takes one docs folder")
			}
			l, err := site.Detect(dir)
			if err != nil {
				return usage("init: %v", err)
			}
			text := config.Starter(config.Site{Generator: l.Generator, Evidence: l.Evidence, Content: l.Content, Lang: l.Lang, Langs: l.Langs,
				SiteURL: l.SiteURL, Partials: l.Partials, Documents: l.Documents})
			out := cmd.String("output")
			if out == "-" {
				_, err := fmt.Fprint(cmd.Root().Writer, text)
				return err
			}
			if err := writeNew(out, []byte(text), cmd.Bool("force")); err != nil {
				return err
			}
			what := "no generator recognised"
			if l.Generator != "" {
				what = l.Generator + ", by " + l.Evidence
			}
			fmt.Fprintf(cmd.Root().ErrWriter, "wrote %s for %s (%s; %d Markdown files", out, l.Content, what, l.Documents)
			if len(l.Langs) > 0 {
				fmt.Fprintf(cmd.Root().ErrWriter, "; language folders %v", l.Langs)
			}
			fmt.Fprintf(cmd.Root().ErrWriter, ")\nnext: ingest config --config %s --corpus %s, then ingest index --corpus %s --config %s --out out/knowledge\n", out, l.Content, l.Content, out)
			return nil
		},
	}
}

// writeNew writes a file that must not exist yet (unless force), whole or
// not at all.
func writeNew(path string, b []byte, force bool) error {
	if _, err := os.Lstat(path); err == nil && !force {
		return usage("%s exists; keep it, or pass --force to replace it", path)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	err = errors.Join(err, tmp.Sync(), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
