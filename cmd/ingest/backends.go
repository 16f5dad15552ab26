package main

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/settings"
)

// backendFlags are the index command's model flags: the backends, each
// kind of server's address (backends.Kinds), the calls in flight and the
// timeout.
func backendFlags() []cli.Flag {
	positive := func(name string) func(int) error {
		return func(n int) error {
			if n < 1 {
				return fmt.Errorf("--%s %d: want at least 1", name, n)
			}
			return nil
		}
	}
	flags := []cli.Flag{
		&cli.StringFlag{Name: "llm", Sources: cli.EnvVars("INGEST_LLM"), Value: "none", Usage: "header and field writer: none (extractive, offline), " + backends.Specs(backends.Chat)},
		&cli.StringFlag{Name: "embedder", Sources: cli.EnvVars("INGEST_EMBEDDER"), Value: "builtin", Usage: "embedder: builtin (lexical, offline), " + backends.Specs(backends.Embed)},
	}
	flags = append(flags, addrFlags()...)
	return append(flags,
		&cli.IntFlag{Name: "llm-concurrency", HideDefault: true, Usage: "header calls in flight in all, fixed (default: learned per server, from 2 up to llm_max_concurrency in the config; or llm_concurrency)", Validator: positive("llm-concurrency")},
		&cli.IntFlag{Name: "embed-concurrency", HideDefault: true, Usage: "embedding batches in flight in all (default 2 per server, or embed_concurrency in the config)", Validator: positive("embed-concurrency")},
		timeoutFlag(),
	)
}

// addrFlags are the servers' addresses, a flag for each kind, read from
// its variable when not given (OLLAMA_HOST, OPENAI_BASE_URL).
func addrFlags() []cli.Flag {
	var flags []cli.Flag
	for _, k := range backends.Kinds() {
		flags = append(flags, &cli.StringFlag{Name: k.Flag, Sources: cli.EnvVars(k.Env), Usage: k.Usage})
	}
	return flags
}

func timeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "model-timeout", Value: 2 * time.Minute, Usage: "longest wait for one model call before it is retried (1s to 24h)", Validator: func(d time.Duration) error {
		if d < time.Second || d > 24*time.Hour {
			return fmt.Errorf("--model-timeout %s: want 1s to 24h", d)
		}
		return nil
	}}
}

// modelRetry is every model call's tries and back-off (zero: the defaults,
// models.RetryPolicy's). Only the tests set it, once in TestMain: a failing
// server's back-offs are all the time a failing run waits.
var modelRetry models.RetryPolicy

// backendConfig turns the run's models (modelSettings: the config file's,
// under the model flags and their variables: OLLAMA_HOST,
// OPENAI_BASE_URL…), the variables a model server's client reads
// (OLLAMA_AUTH, the API key's), and the settings of the run's config that
// shape a backend (dims, batch size, header cap), into a BackendConfig: the
// environment is read here, never in package models.
func backendConfig(m config.Models, cfg settings.Config) models.BackendConfig {
	bc := models.BackendConfig{
		Dims:           cfg.Embed.Dims,
		MaxDims:        cfg.Embed.MaxDims,
		BatchSize:      cfg.Embed.BatchSize,
		HeaderMaxChars: cfg.Header.MaxChars,
		LLM:            m.LLM,
		Embedder:       m.Embedder,
		Addrs:          maps.Clone(m.Hosts),
		Timeout:        m.ModelTimeout,
		Retry:          modelRetry,
		OllamaAuth:     ollamaAuth(os.Getenv("OLLAMA_AUTH")),
		OllamaKey:      ollamaKey(),
		// llm_concurrency, when set, is fixed by the run (settings.Config).
		LLMMaxConcurrency: cfg.LLMMaxConcurrency,
	}
	bc.OpenAIKey = os.Getenv(bc.KeyEnv())
	return bc
}

// ollamaAuth reads $OLLAMA_AUTH as Ollama does (envconfig.Bool, v0.17.4):
// spaces and quotes trimmed, then a boolean ("1", "true", "0", "false"…),
// anything else on, empty off.
func ollamaAuth(v string) bool {
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	if v == "" {
		return false
	}
	on, err := strconv.ParseBool(v)
	return on || err != nil
}

// ollamaKey is where Ollama keeps the key its requests are signed with,
// ~/.ollama/id_ed25519; "" when there is no home folder.
func ollamaKey() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".ollama", "id_ed25519")
}

// modelOpener opens the run's model backends once the run holds its
// target: the flags' backends, keeping the model digests of the snapshot
// the run reuses from (prev) where several servers serve a model.
//
// unreached (index --plan without --probe) opens them as a plan counts
// with them, contacting no server (backends.OpenForPlan): a cost estimate
// needs no server up.
func modelOpener(m config.Models, cfg settings.Config, logger *slog.Logger, unreached bool) stages.ModelOpener {
	return func(ctx context.Context, prev *artifacts.Manifest) (models.HeaderWriter, models.Embedder, error) {
		bc := backendConfig(m, cfg)
		bc.Logger = logger
		if prev != nil {
			bc.PrevDigests = models.PrevDigests(prev.HeaderWriter, prev.Embedder.Name)
		}
		open := backends.Open
		if unreached {
			dims := cfg.Embed.Dims
			if prev != nil && prev.Embedder.Dims > 0 {
				dims = prev.Embedder.Dims
			}
			open = func(ctx context.Context, bc models.BackendConfig) (models.HeaderWriter, models.Embedder, error) {
				return backends.OpenForPlan(ctx, bc, dims)
			}
		}
		h, e, err := open(ctx, bc)
		if err != nil {
			return nil, nil, settingsError(err)
		}
		return h, e, nil
	}
}
