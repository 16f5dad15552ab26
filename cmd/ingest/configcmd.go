package main

import (
	"context"
	"maps"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/forgive"
)

// settingKeyFlags are index's flags that set a config key, by flag name:
// the run's and the models'.
func settingKeyFlags() map[string]string {
	out := modelKeyFlags()
	maps.Copy(out, runSettingFlags)
	return out
}

// runSettingFlags are index's flags that set a key of the run's config.
var runSettingFlags = map[string]string{
	"corpus": "corpus", "out": "out", "prev": "prev", "workers": "workers", "strict": "strict",
	"llm-concurrency": "llm_concurrency", "embed-concurrency": "embed_concurrency", "ignore": "diagnostics.ignore",
}

func configCommand() *cli.Command {
	flags := []cli.Flag{jsonFlag("[{key, value, source, where}]: source is default, file, env or flag")}
	for _, f := range indexCommand().Flags { // what index would make of the same flags
		if n := f.Names()[0]; n != "json" {
			flags = append(flags, f)
		}
	}
	return &cli.Command{
		Name:  "config",
		Usage: "print the configuration index would run with (the defaults, --config, the environment and the flags) and where each value came from",
		Flags: flags,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			f, err := loadConfig(ctx, cmd)
			if err != nil {
				return err
			}
			f.Models = modelSettings(cmd, f)
			f.Run = runConfig(cmd, f, f.Models)
			if cmd.IsSet("out") {
				f.Out = cmd.String("out")
			}
			if cmd.IsSet("prev") {
				f.Prev = cmd.String("prev")
			}
			path := cmd.String("config")
			var raw []byte
			if path != "" {
				if raw, err = os.ReadFile(path); err != nil {
					return usage("config: %v", err)
				}
			}
			settings, err := config.Explain(f, path, raw, overrides(cmd))
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return console.WriteSettingsJSON(cmd.Root().Writer, settings)
			}
			console.PrintSettings(cmd.Root().Writer, path, f.Run.Corpus, settings)
			return checkSettings(cmd, f) // shown, then checked as index checks it
		},
	}
}

// overrides are the keys the command line and the environment set, with
// which flag or variable set each.
func overrides(cmd *cli.Command) map[string]config.Origin {
	over := map[string]config.Origin{}
	args := os.Args
	if r := cmd.Root(); r != nil && len(r.Args().Slice()) > 0 {
		args = r.Args().Slice()
	}
	for name, key := range settingKeyFlags() {
		if !cmd.IsSet(name) {
			continue
		}
		typed := forgive.Typed(args, name)
		o := config.Origin{Source: config.FromFlag, Where: "--" + name}
		if !typed {
			for _, f := range cmd.Flags {
				if f.Names()[0] != name {
					continue
				}
				if e, ok := f.(interface{ GetEnvVars() []string }); ok {
					for _, v := range e.GetEnvVars() {
						if _, set := os.LookupEnv(v); set {
							o = config.Origin{Source: config.FromEnv, Where: v}
						}
					}
				}
			}
		}
		over[key] = o
	}
	return over
}
