package main

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/stages/estimate"
)

// planRates estimates the plan's time: at --plan-rate, or at the rates
// --probe measures with one call to each server.
func planRates(ctx context.Context, cmd *cli.Command, p *estimate.Result) error {
	embedServers := models.Endpoints(cmd.String("ollama-host"))
	if strings.HasPrefix(cmd.String("embedder"), "openai:") {
		embedServers = models.Endpoints(cmd.String("openai-base-url"))
	}
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
