package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/stages/estimate"
)

// TestPlanNeedsNoServer: index --plan estimates a run on model servers
// that are down (nothing listens on 127.0.0.1:1) at the rates given on
// the command line or in the config, else at the defaults, and says which;
// with no --out it plans a first run. Only --probe reaches the servers,
// and an unreachable one is then an error.
func TestPlanNeedsNoServer(t *testing.T) {
	t.Parallel()
	srv := modelfake.New(modelfake.Options{Dims: 1024})
	defer srv.Close()
	cfg := filepath.Join(t.TempDir(), "rates.yaml")
	os.WriteFile(cfg, []byte("plan_rate: 500,20,900\n"), 0o644)
	down := []string{"--llm", "ollama:X", "--embedder", "ollama:bge-m3", "--ollama-host", "http://127.0.0.1:1"}
	tests := []struct {
		name     string
		flags    []string
		wantCode int
		wantFrom string // the rates' source; "" when the plan fails
		prefill  float64
	}{
		{"the issue's command", []string{"--llm", "ollama:X", "--ollama-host", "http://127.0.0.1:1", "--plan-rate", "2000,40"}, exitOK, estimate.RatesGiven, 2000},
		{"no rates: the defaults, said so", down, exitOK, estimate.RatesDefault, estimate.DefaultRates[0]},
		{"rates in the config", append([]string{"--config", cfg}, down...), exitOK, estimate.RatesGiven, 500},
		{"a flag over the config's rates", append([]string{"--config", cfg, "--plan-rate", "700"}, down...), exitOK, estimate.RatesGiven, 700},
		{"--probe, a server down", append([]string{"--probe"}, down...), exitUsage, "", 0},
		{"--probe, the server up", []string{"--probe", "--llm", "ollama:qwen2.5:7b", "--ollama-host", srv.URL}, exitOK, estimate.RatesProbe, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"index", "--corpus", fixtureCorpus, "--plan", "--json"}, tt.flags...)
			code, stdout, stderr := runCLI(context.Background(), "", args...)
			if code != tt.wantCode {
				t.Fatalf("got exit %d, want %d: %s", code, tt.wantCode, stderr)
			}
			if tt.wantFrom == "" {
				if !strings.Contains(stderr, "unreachable") {
					t.Errorf("got stderr %q, want the unreachable server named", stderr)
				}
				return
			}
			var p estimate.Result
			if err := json.Unmarshal([]byte(stdout), &p); err != nil {
				t.Fatalf("%v: %s", err, stdout)
			}
			if p.HeaderCost == nil || p.HeaderCost.Rate == nil || p.HeaderCost.Seconds <= 0 {
				t.Fatalf("got header cost %+v, want an estimate", p.HeaderCost)
			}
			if r := p.HeaderCost.Rate; r.From != tt.wantFrom || tt.prefill >= 0 && r.Prefill != tt.prefill {
				t.Errorf("got rates %+v, want from %s at %g prompt tokens a second", r, tt.wantFrom, tt.prefill)
			}
		})
	}
	code, stdout, stderr := runCLI(context.Background(), "", append([]string{"index", "--corpus", fixtureCorpus, "--plan"}, down...)...)
	if code != exitOK || !strings.Contains(stdout+stderr, "tokens a second (default rates; --plan-rate or --probe for your servers')") {
		t.Errorf("got exit %d, %q; want the estimate at the defaults, named so", code, stdout+stderr)
	}
}
