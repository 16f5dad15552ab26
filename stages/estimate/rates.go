package estimate

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/models"
)

// ParseRates reads --plan-rate's PREFILL[,DECODE[,EMBED]], tokens a second:
// EMBED is PREFILL when not given.
func ParseRates(s string) ([3]float64, error) {
	var r [3]float64
	for i, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || v <= 0 || i >= len(r) {
			return r, errors.New("want PREFILL[,DECODE[,EMBED]], tokens a second, each above 0")
		}
		r[i] = v
	}
	if r[2] == 0 {
		r[2] = r[0]
	}
	return r, nil
}

// HeaderServers is how many servers answer the header writer's calls (1
// for one that does not say).
func (p *Result) HeaderServers() int {
	if l, ok := p.headers.(models.Lanes); ok {
		return l.Servers()
	}
	return 1
}

// DefaultRates are the rates a plan estimates at when none is given nor
// measured (PREFILL, DECODE, EMBED tokens a second, one call at a time): a
// 7B chat model at 4 bits and bge-m3 on one mid-range GPU under Ollama,
// the order of what --probe measures there. The plan says it used them.
var DefaultRates = [3]float64{1000, 30, 2000}

// The sources of a plan's rates (Rate.From).
const (
	RatesGiven   = "given"   // --plan-rate, or plan_rate in the config
	RatesDefault = "default" // DefaultRates
	RatesProbe   = "probe"   // --probe: one call to each server
)

// AtRates estimates the plan's time at the rates r (ParseRates, or
// DefaultRates), from (RatesGiven or RatesDefault), the embeddings spread
// over embedServers.
func (p *Result) AtRates(r [3]float64, embedServers int, from string) {
	p.HeaderCost.Estimate(Rate{Prefill: r[0], Decode: r[1], Servers: p.HeaderServers(), From: from})
	p.EmbedCost.Estimate(Rate{Prefill: r[2], Servers: embedServers, From: from})
}

// Probe estimates the plan's time at the rates one call to each server
// measures, for a writer or embedder over a model server (one that can be
// probed: remote's).
func (p *Result) Probe(ctx context.Context, embedServers int) error {
	if h, ok := p.headers.(interface {
		ProbeRates(context.Context) ([]models.Rate, error)
	}); ok && p.HeaderCost != nil {
		rates, err := h.ProbeRates(ctx)
		if err != nil {
			return err
		}
		p.HeaderCost.Estimate(meanRate(rates, p.HeaderServers()))
	}
	if e, ok := p.embed.(interface {
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
func meanRate(rs []models.Rate, servers int) Rate {
	out := Rate{Servers: servers, From: RatesProbe}
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
