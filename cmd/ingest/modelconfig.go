package main

import (
	"maps"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/models/backends"
)

// modelSettings are the run's models and servers: the config file's
// (config.Models, or their defaults), and over them each model flag that
// was given or read from its variable (OLLAMA_HOST, INGEST_LLM…), as for
// every other key. A command without a flag keeps the file's value.
func modelSettings(cmd *cli.Command, f config.File) config.Models {
	m := f.Models
	m.Hosts = maps.Clone(m.Hosts)
	if m.Hosts == nil {
		m.Hosts = map[string]string{}
	}
	set := func(name string) bool { return hasFlag(cmd, name) && cmd.IsSet(name) }
	if set("llm") {
		m.LLM = cmd.String("llm")
	}
	if set("embedder") {
		m.Embedder = cmd.String("embedder")
	}
	if set("model-timeout") {
		m.ModelTimeout = cmd.Duration("model-timeout")
	}
	if set("plan-rate") {
		m.PlanRate = cmd.String("plan-rate")
	}
	for _, k := range backends.Kinds() {
		if set(k.Flag) {
			m.Hosts[k.Name] = cmd.String(k.Flag)
		}
	}
	return m
}

// hasFlag reports whether cmd has the flag name.
func hasFlag(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// modelKeyFlags are the flags that set a model key of the config file, by
// flag name: each kind's address flag sets hosts.KIND.
func modelKeyFlags() map[string]string {
	out := map[string]string{"llm": "llm", "embedder": "embedder", "model-timeout": "model_timeout", "plan-rate": "plan_rate"}
	for _, k := range backends.Kinds() {
		out[k.Flag] = "hosts." + k.Name
	}
	return out
}

// hostEnv is the variable that gives a kind of server's address, for a
// message that sends a credential there.
func hostEnv(kind string) string {
	for _, k := range backends.Kinds() {
		if k.Name == kind {
			return k.Env
		}
	}
	return "the address flag's variable"
}
