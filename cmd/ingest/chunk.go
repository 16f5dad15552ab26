package main

import (
	"context"

	"github.com/ocean-safety/ingest/stages/preview"
	"github.com/urfave/cli/v3"
)

// chunkLine is one line of `ingest chunk` output (preview.Line).
type chunkLine = preview.Line

func chunkCommand() *cli.Command {
	return &cli.Command{
		Name:      "chunk",
		Usage:     "show how files would be chunked, as JSON lines (for authors tuning their documents); --stats judges a whole corpus",
		ArgsUsage: "FILE|DIR...",
		Description: "A FILE is chunked as it is; a DIR is read as a corpus (the config's include and exclude apply).\n" +
			"--stats prints, per argument, what a reader would judge of the chunks instead of the chunks:\n" +
			"fragments, lead-ins cut from what they introduce, code without context, headers, sizes.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Usage: "YAML config file, read exactly as index reads it"},
			&cli.IntFlag{Name: "max", Usage: "override chunk.max"},
			&cli.BoolFlag{Name: "stats", Usage: "print chunk quality figures per FILE or DIR instead of the chunks"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() == 0 {
				return usage("chunk needs at least one FILE or DIR")
			}
			f, err := loadConfig(ctx, cmd)
			if err != nil {
				return err
			}
			cfg := f.Run
			if cmd.IsSet("max") {
				cfg.Chunk.Max = cmd.Int("max")
			}
			pv, err := preview.New(cfg, cmd.Bool("stats"), cmd.Root().Writer, cmd.Root().ErrWriter)
			if err != nil {
				return settingsError(err)
			}
			rejected := 0
			for _, arg := range cmd.Args().Slice() {
				n, err := pv.Chunk(arg)
				rejected += n
				if err != nil {
					return err
				}
			}
			if rejected > 0 && !cmd.Bool("stats") {
				return errPartial
			}
			return nil
		},
	}
}
