package main

import (
	"context"
	"os"

	"github.com/ocean-safety/ingest/internal/redact"
)

// givenSecrets is the set of secrets this command was given, masked by
// value wherever they would be printed: the credentials in the command
// line's arguments (a flag's value after "=" too), in the environment
// (addresses, connection strings, the API key and push token variables,
// and what a library reads without a flag: AWS_SECRET_ACCESS_KEY,
// PGPASSWORD…) and, once read, in the config file (loadConfig adds them).
// Nothing else in the output is rewritten: a corpus line, a search result
// or a completion script prints as written.
func givenSecrets(args []string) *redact.Set {
	values := append(redact.CommandLine(args), redact.Environment(os.Environ(), "OPENAI_API_KEY", pushTokenEnv)...)
	return redact.NewSet(redact.Secrets(values...)...)
}

type secretsKey struct{}

// withSecrets carries the command's set of secrets to where more are read.
func withSecrets(ctx context.Context, s *redact.Set) context.Context {
	return context.WithValue(ctx, secretsKey{}, s)
}

// addSecrets adds, to the command's set, the secrets in a file's text (a
// config file's addresses and credential-like values).
func addSecrets(ctx context.Context, text string) {
	if s, ok := ctx.Value(secretsKey{}).(*redact.Set); ok {
		s.Add(redact.Lines(text)...)
	}
}
