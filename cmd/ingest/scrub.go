package main

import (
	"io"
	"strings"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/pgsync"
)

// scrubber is a writer that replaces credentials with *** in everything
// written through it: the last guard behind the library's own redaction,
// for a message that quotes an address the library did not build (an HTTP
// client's error, a server's answer). Each write is scrubbed whole; what
// the tool prints goes out a line or more at a time.
type scrubber struct {
	w       io.Writer
	replace *strings.Replacer
}

// newScrubber wraps w to scrub the credentials in the command line's
// arguments and in the model servers' and push's environment variables. A database
// address (sync --to) gives its password only: its user name is most often
// "postgres", which the scheme itself spells.
func newScrubber(w io.Writer, args []string) io.Writer {
	var addresses, databases []string
	for _, a := range args {
		vs := []string{a}
		if _, v, ok := strings.Cut(a, "="); ok { // --ollama-host=URL
			vs = append(vs, v)
		}
		for _, v := range vs {
			if strings.HasPrefix(v, "postgres://") || strings.HasPrefix(v, "postgresql://") || strings.Contains(v, "password=") {
				databases = append(databases, v)
			} else {
				addresses = append(addresses, v)
			}
		}
	}
	secrets := models.Secrets(addresses, "")
	secrets = append(secrets, models.Secrets(nil, pushTokenEnv)...) // push's bearer token
	for _, d := range databases {
		secrets = append(secrets, pgsync.Secrets(d)...)
	}
	if len(secrets) == 0 {
		return w
	}
	var pairs []string
	for _, s := range secrets {
		pairs = append(pairs, s, "***")
	}
	return &scrubber{w: w, replace: strings.NewReplacer(pairs...)}
}

func (s *scrubber) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, s.replace.Replace(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap returns the writer underneath, for a terminal check.
func (s *scrubber) Unwrap() io.Writer { return s.w }
