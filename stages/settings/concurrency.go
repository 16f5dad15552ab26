package settings

import (
	"github.com/ocean-safety/ingest/models"
)

// PerServer gives the calls in flight the config leaves to its defaults
// (llm_concurrency, embed_concurrency) one default's worth for each server
// the backends of bc spread their calls over (BackendConfig.Servers: the
// addresses listed for the setting's kind): two embedding batches a
// server, what one Ollama serves at once and one waiting, so N servers get
// N times the slots; header calls are learned per server (the default, 0). set reports
// whether a key was set, by the config file or a flag: a number chosen is
// kept as given, whatever it is, and never compared with the default to
// guess.
func (c *Config) PerServer(bc models.BackendConfig, set func(key string) bool) {
	if !set("llm_concurrency") {
		c.LLMConcurrency = defaultLLMConcurrency * bc.Servers(bc.LLM)
	}
	if !set("embed_concurrency") {
		c.EmbedConcurrency = defaultEmbedConcurrency * bc.Servers(bc.Embedder)
	}
}
