package server

import (
	"errors"
	"net/url"

	"github.com/ocean-safety/ingest/internal/redact"
)

// Credentials travel in model server addresses (http://user:token@host,
// ?api_key=…) and in OPENAI_API_KEY. They are used, never shown: every
// address in a message goes through redact.URL, and the command line
// scrubs what it prints with redact.Secrets.

// RedactErr removes credentials from the address an HTTP client's error
// quotes (Go hides a password, not a user name or a token in the query).
func RedactErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = redact.URL(ue.URL)
	}
	return err
}
