package pgsync

import (
	"strings"

	"github.com/ocean-safety/ingest/internal/redact"
)

// A postgres:// URL carries its password; a sync names its target in every
// report and many errors, so the password is removed from both
// (redact.URL keeps a database URL's user, to say where it went).

// redactedError is an error whose message had the password removed; it
// still unwraps to the original, so errors.Is and errors.As work.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactErr removes the connection string's password from err's message.
func redactErr(err error, connString string) error {
	if err == nil {
		return nil
	}
	msg := redact.Text(err.Error())
	for _, s := range redact.Secrets(connString) {
		msg = strings.ReplaceAll(msg, s, redact.Mask)
	}
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg, err}
}
