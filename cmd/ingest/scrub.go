package main

import (
	"io"
	"os"

	"github.com/ocean-safety/ingest/internal/redact"
)

// newScrubber wraps w to scrub, from everything written through it, the
// credentials in the command line's arguments (a flag's value after "="
// too) and in the environment's addresses and API key (the flags read
// INGEST_PUBLISH, OLLAMA_HOST, OPENAI_BASE_URL… from it) and API keys, and any address's
// credentials: the last guard behind the messages' own redaction, for a
// message that quotes an address the library did not build (an HTTP
// client's error, a server's answer, an encoded endpoint option).
func newScrubber(w io.Writer, args []string) io.Writer {
	values := append(redact.CommandLine(args), redact.Environment(os.Environ(), "OPENAI_API_KEY", pushTokenEnv)...) // and push's bearer token
	return redact.NewScrubber(w, redact.Secrets(values...))
}
