package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/estimate"
	"github.com/ocean-safety/ingest/models"
)

// planRates estimates the plan's time: at --plan-rate, or at the rates
// --probe measures with one call to each server.
func planRates(ctx context.Context, cmd *cli.Command, p *estimate.Result) error {
	headers, embedder := p.Models()
	servers := 1
	if l, ok := headers.(models.Lanes); ok {
		servers = l.Servers()
	}
	embedServers := models.Endpoints(cmd.String("ollama-host"))
	if strings.HasPrefix(cmd.String("embedder"), "openai:") {
		embedServers = models.Endpoints(cmd.String("openai-base-url"))
	}
	if s := cmd.String("plan-rate"); s != "" {
		var r [3]float64
		parts := strings.Split(s, ",")
		for i, f := range parts {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || v <= 0 || i >= len(r) {
				return usage("--plan-rate %q: want PREFILL[,DECODE[,EMBED]], tokens a second, each above 0", s)
			}
			r[i] = v
		}
		if r[2] == 0 {
			r[2] = r[0]
		}
		p.HeaderCost.Estimate(estimate.Rate{Prefill: r[0], Decode: r[1], Servers: servers, From: "given"})
		p.EmbedCost.Estimate(estimate.Rate{Prefill: r[2], Servers: embedServers, From: "given"})
	}
	if !cmd.Bool("probe") {
		return nil
	}
	// A writer or embedder over a model server can be probed (remote's).
	if h, ok := headers.(interface {
		ProbeRates(context.Context) ([]models.Rate, error)
	}); ok && p.HeaderCost != nil {
		rates, err := h.ProbeRates(ctx)
		if err != nil {
			return err
		}
		p.HeaderCost.Estimate(meanRate(rates, servers))
	}
	if e, ok := embedder.(interface {
		ProbeRate(context.Context) (models.Rate, error)
	}); ok && p.EmbedCost != nil {
		r, err := e.ProbeRate(ctx)
		if err != nil {
			return err
		}
		p.EmbedCost.Estimate(meanRate([]models.Rate{r}, embedServers))
	}
	return nil
}

// meanRate is the servers' mean rate, measured.
func meanRate(rs []models.Rate, servers int) estimate.Rate {
	out := estimate.Rate{Servers: servers, From: "probe"}
	told := 0
	for _, r := range rs {
		out.PerCall += r.PerCall / float64(len(rs))
		if r.Prefill > 0 {
			out.Prefill += r.Prefill
			out.Decode += r.Decode
			told++
		}
	}
	if told == len(rs) {
		out.Prefill, out.Decode, out.PerCall = out.Prefill/float64(told), out.Decode/float64(told), 0
	} else {
		out.Prefill, out.Decode = 0, 0 // some said nothing: by the calls' time
	}
	return out
}

// printCost prints one model's estimated cost.
func printCost(w io.Writer, what, tokenizer string, c *estimate.Cost) {
	if c == nil {
		return
	}
	fmt.Fprintf(w, "  %s tokens (%s): %d prompt", what, tokenizer, c.PromptTokens)
	if c.CachedTokens > 0 {
		fmt.Fprintf(w, ", %d of them a prefix cache can reuse", c.CachedTokens)
	}
	if c.AnswerTokens > 0 {
		fmt.Fprintf(w, ", %d answer", c.AnswerTokens)
	}
	if r := c.Rate; r != nil {
		at := fmt.Sprintf("%.0f s a call", r.PerCall)
		if r.Prefill > 0 {
			at = fmt.Sprintf("%.0f prompt", r.Prefill)
			if r.Decode > 0 {
				at += fmt.Sprintf(" and %.0f answer", r.Decode)
			}
			at += " tokens a second"
		}
		fmt.Fprintf(w, "; about %s at %s (%s), one call at a time on each of %s", time.Duration(c.Seconds*float64(time.Second)).Round(time.Second), at, r.From, plural(r.Servers, "server"))
	}
	fmt.Fprintln(w)
}
