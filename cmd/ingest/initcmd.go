package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/corpus/site"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "write a commented starter config for a docs folder (recognising Hugo, Docusaurus and MkDocs layouts and language folders)",
		ArgsUsage: "[DIR]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Value: "ingest.yaml", Usage: "the file to write (\"-\": stdout), in DIR unless a path is given; an existing file is kept unless --force"},
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
			found := config.Site{Generator: l.Generator, Evidence: l.Evidence, Content: l.Content, Lang: l.Lang, Langs: l.Langs,
				DefaultLang: l.DefaultLang, DefaultInFolder: l.DefaultInFolder, SiteURL: l.SiteURL, Partials: l.Partials, Documents: l.Documents,
				Suffix: l.Structure == site.Suffix, SiteLangs: siteLocales(l.SiteLangs, true), Unbuilt: siteLocales(l.SiteLangs, false), Includes: l.Includes}
			text := config.Starter(found)
			out := cmd.String("output")
			if !cmd.IsSet("output") { // the config belongs with the site it describes, not the folder init ran in
				out = filepath.Join(dir, out)
			}
			if out == "-" {
				_, err := fmt.Fprint(cmd.Root().Writer, text)
				return err
			}
			err = config.WriteNew(out, []byte(text), cmd.Bool("force"))
			if errors.Is(err, fs.ErrExist) {
				return usage("%s exists; keep it, or pass --force to replace it", out)
			}
			if err != nil {
				return err
			}
			console.PrintStarter(cmd.Root().ErrWriter, out, found)
			return nil
		},
	}
}

// siteLocales are the locales of the languages a site builds (built), or
// of those its config lists and does not build.
func siteLocales(langs []site.SiteLang, built bool) []string {
	var out []string
	for _, l := range langs {
		if l.Build == built && l.Locale != "" {
			out = append(out, l.Locale)
		}
	}
	return out
}
