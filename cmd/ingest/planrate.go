package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/stages/estimate"
)

// planRates estimates the plan's time: at --plan-rate, or at the rates
// --probe measures with one call to each server.
func planRates(ctx context.Context, cmd *cli.Command, p *estimate.Result) error {
	embedServers := models.BackendConfig{Addrs: addrs(cmd)}.Servers(cmd.String("embedder"))
	if s := cmd.String("plan-rate"); s != "" {
		r, err := estimate.ParseRates(s)
		if err != nil {
			return usage("--plan-rate %q: %v", s, err)
		}
		p.AtRates(r, embedServers)
	}
	if !cmd.Bool("probe") {
		return nil
	}
	return p.Probe(ctx, embedServers)
}
