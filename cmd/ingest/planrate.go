package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/stages/estimate"
)

// planRates estimates the plan's time: at the rates --probe measures with
// one call to each server, else at --plan-rate (or plan_rate), else at
// estimate.DefaultRates; the plan says which (Rate.From). Only --probe
// reaches a server.
func planRates(ctx context.Context, cmd *cli.Command, m config.Models, p *estimate.Result) error {
	embedServers := models.BackendConfig{Addrs: m.Hosts}.Servers(m.Embedder)
	if cmd.Bool("probe") {
		return p.Probe(ctx, embedServers)
	}
	r, from := estimate.DefaultRates, estimate.RatesDefault
	if s := m.PlanRate; s != "" {
		var err error
		if r, err = estimate.ParseRates(s); err != nil {
			return usage("--plan-rate %q: %v", s, err) // checkSettings has refused it already
		}
		from = estimate.RatesGiven
	}
	p.AtRates(r, embedServers, from)
	return nil
}
