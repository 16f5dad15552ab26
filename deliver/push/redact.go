package push

import (
	"strings"

	"github.com/ocean-safety/ingest/internal/redact"
)

// The token (and any header-file value, and the destination URL's own
// credentials) is used, never shown: the destination is named through
// redactURL, and whatever a server or the HTTP client wrote goes through
// secrets.scrub before it reaches an error. These are the package's only
// two call sites of redaction; the command line scrubs its output again.

// redactURL is the project's redaction of an address (internal/redact):
// user info and credential-like query values become ***.
func redactURL(u string) string { return redact.URL(u) }

// secrets are the values no message may show.
type secrets []string

// scrub replaces every secret in msg with ***, and the addresses' user info.
func (s secrets) scrub(msg string) string {
	for _, v := range s {
		if len(v) >= 4 { // shorter would scrub ordinary words
			msg = strings.ReplaceAll(msg, v, redact.Mask)
		}
	}
	return redact.Text(msg)
}

// secretsOf gathers what must never be printed: the header values sent
// (the bearer token among them, bare too) and the destination's
// credentials.
func secretsOf(to string, headers map[string]string, token string) secrets {
	s := secrets(redact.Secrets(to))
	if token != "" {
		s = append(s, token)
	}
	for _, v := range headers {
		s = append(s, v)
		if _, after, ok := strings.Cut(v, " "); ok { // "Bearer xyz": xyz alone too
			s = append(s, after)
		}
	}
	return s
}
