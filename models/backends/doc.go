// Package backends opens a run's header writer and embedder by name
// ("none", "builtin", "ollama:MODEL", "openai:MODEL") with their start-up
// checks: the one place that knows every client. Each kind of model
// server is one entry in kinds (kinds.go): its name, the prefix of a
// setting and the key of its address; its address flag; its client's
// constructor, whose type says what the kind serves (a client without
// Chat is refused for --llm). The command line's flags and the settings'
// server counts read the entries; a new kind is a client package and an
// entry.
package backends
