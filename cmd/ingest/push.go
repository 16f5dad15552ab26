package main

import (
	"context"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/deliver/destinations"
	"github.com/ocean-safety/ingest/deliver/push"
	"github.com/ocean-safety/ingest/publish/place"
)

// pushTokenEnv holds the bearer token of ingest push.
const pushTokenEnv = "INGEST_PUSH_TOKEN"

func pushCommand() *cli.Command {
	return &cli.Command{
		Name:  "push",
		Usage: "send a snapshot's changed document versions to an ingest API, and delete what it no longer has (resumable, idempotent; docs/push.md)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "snapshot", Usage: "snapshot folder, or a bucket's URL/latest or URL/<name> (it must verify)"},
			&cli.StringFlag{Name: "to", Usage: "the ingest endpoint, https://HOST/PATH (config push.to)"},
			&cli.StringFlag{Name: "tenant", Usage: "tenant UUID (default: the snapshot's tenant_id, if it is one)"},
			&cli.StringFlag{Name: "header-file", Usage: `a file of "Name: value" headers sent on every request (secret); the token otherwise comes from $` + pushTokenEnv},
			&cli.StringFlag{Name: "state", Usage: "the push's state folder (default: beside the snapshot's publish target, one per destination)"},
			&cli.BoolFlag{Name: "full", Usage: "send every document again, not only what changed"},
			&cli.BoolFlag{Name: "plan", Usage: "say what would be sent and deleted (documents, chunks, requests, bytes), send nothing"},
			&cli.StringFlag{Name: "config", Usage: "config file (its push: block)", Sources: cli.EnvVars("INGEST_CONFIG")},
			jsonFlag("the plan or report as JSON"),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			opt, err := pushOptions(ctx, cmd)
			if err != nil {
				return err
			}
			dir, cleanup, err := place.Trusted(ctx, opt.Snapshot)
			if err != nil {
				return err
			}
			defer cleanup()
			if opt.StateRoot, err = place.StateRoot(opt.Snapshot, work()); err != nil {
				return err
			}
			d, err := destinations.Open(opt.Settings.To, destinations.Options{Push: &opt})
			if err != nil {
				return settingsError(err)
			}
			return deliverTo(ctx, cmd, d, dir, opt.Settings.Tenant)
		},
	}
}

// pushOptions turns the config's push block and the flags (a flag given
// wins) into push options; the token comes from the environment.
func pushOptions(ctx context.Context, cmd *cli.Command) (push.Options, error) {
	f, err := loadConfig(ctx, cmd)
	if err != nil {
		return push.Options{}, err
	}
	set := f.Push
	for flag, dst := range map[string]*string{"to": &set.To, "tenant": &set.Tenant, "header-file": &set.HeaderFile, "state": &set.State} {
		if cmd.IsSet(flag) {
			*dst = cmd.String(flag)
		}
	}
	opt := push.Options{Snapshot: cmd.String("snapshot"), Settings: set, Token: os.Getenv(pushTokenEnv), Full: cmd.Bool("full"),
		Agent: "ingest/" + version}
	if opt.Snapshot == "" || set.To == "" {
		return opt, usage("push needs --snapshot DIR|URL and --to https://HOST/PATH (or push.to in the config)")
	}
	if err := set.Validate(); err != nil {
		return opt, settingsError(err)
	}
	if set.HeaderFile != "" {
		if opt.Headers, err = push.ReadHeaderFile(set.HeaderFile); err != nil {
			return opt, usageError{err}
		}
	}
	return opt, nil
}
