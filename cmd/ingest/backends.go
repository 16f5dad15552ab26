package main

import (
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/stages"
)

// Model concurrency defaults: calls in flight to one server. Ollama serves
// two requests per model at once by default (OLLAMA_NUM_PARALLEL); more only
// queue there and wait out their timeout.
const (
	defaultLLMConcurrency   = 2
	defaultEmbedConcurrency = 2
)

// backendFlags are the index command's model flags.
func backendFlags() []cli.Flag {
	positive := func(name string) func(int) error {
		return func(n int) error {
			if n < 1 {
				return fmt.Errorf("--%s %d: want at least 1", name, n)
			}
			return nil
		}
	}
	return []cli.Flag{
		&cli.StringFlag{Name: "llm", Value: "none", Usage: "header and field writer: none (extractive, offline), ollama:MODEL or openai:MODEL"},
		&cli.StringFlag{Name: "embedder", Value: "builtin", Usage: "embedder: builtin (lexical, offline), ollama:MODEL or openai:MODEL"},
		&cli.StringFlag{Name: "ollama-host", Usage: "Ollama server address (default $OLLAMA_HOST, else http://127.0.0.1:11434)"},
		&cli.StringFlag{Name: "openai-base-url", Usage: "OpenAI-compatible server address (default $OPENAI_BASE_URL); the API key is read from $OPENAI_API_KEY"},
		&cli.IntFlag{Name: "llm-concurrency", Value: defaultLLMConcurrency, Usage: "header calls in flight to the model server", Validator: positive("llm-concurrency")},
		&cli.IntFlag{Name: "embed-concurrency", Value: defaultEmbedConcurrency, Usage: "embedding batches in flight to the model server", Validator: positive("embed-concurrency")},
		&cli.DurationFlag{Name: "model-timeout", Usage: "longest wait for one model call before it is retried (default 2m)"},
	}
}

// modelConcurrency is how many model calls the runner keeps in flight.
type modelConcurrency struct {
	LLM   int // header calls
	Embed int // embedding batches
}

// backendConcurrency reads --llm-concurrency and --embed-concurrency.
func backendConcurrency(cmd *cli.Command) modelConcurrency {
	return modelConcurrency{LLM: cmd.Int("llm-concurrency"), Embed: cmd.Int("embed-concurrency")}
}

// backendConfig turns the model flags into a BackendConfig. The fields a
// run's config decides (dims, batch size, header cap) are left for
// BackendConfig.WithRunConfig.
func backendConfig(cmd *cli.Command) stages.BackendConfig {
	return stages.BackendConfig{
		LLM:           cmd.String("llm"),
		Embedder:      cmd.String("embedder"),
		OllamaHost:    cmd.String("ollama-host"),
		OpenAIBaseURL: cmd.String("openai-base-url"),
		Timeout:       cmd.Duration("model-timeout"),
	}
}
