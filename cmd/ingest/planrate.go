package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/stages/estimate"
)

// planRates estimates the plan's time: at --plan-rate, or at the rates
// --probe measures with one call to each server.
func planRates(ctx context.Context, cmd *cli.Command, m config.Models, p *estimate.Result) error {
	embedServers := models.BackendConfig{Addrs: m.Hosts}.Servers(m.Embedder)
	if s := m.PlanRate; s != "" {
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
