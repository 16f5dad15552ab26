package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/deliver"
)

// deliverTo ends ingest sync and ingest push alike: the snapshot in dir
// (made a local folder by the command) opened for delivery for tenant
// (deliver.Open: verified, whole, one tenant and source label), planned
// (--plan) or delivered by d, and d's report printed as text, or with
// --json as JSON; a failed delivery's report too, when it has one, so a
// machine learns what was done before the error.
func deliverTo(ctx context.Context, cmd *cli.Command, d deliver.Destination, dir, tenant string) error {
	snap, err := deliver.Open(ctx, dir, tenant, nil)
	if err != nil {
		return err
	}
	do := d.Deliver
	if cmd.Bool("plan") {
		do = d.Plan
	}
	rep, err := do(ctx, snap)
	w := cmd.Root().Writer
	if err != nil {
		if rep != nil && cmd.Bool("json") {
			console.WriteJSON(w, rep) // the error follows on stderr
		}
		return settingsError(err)
	}
	if cmd.Bool("json") {
		return console.WriteJSON(w, rep)
	}
	return rep.WriteText(w)
}
