package main

import (
	"io"
	"strings"

	"github.com/ocean-safety/ingest/models"
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
// arguments and in the model servers' environment variables.
func newScrubber(w io.Writer, args []string) io.Writer {
	var addresses []string
	for _, a := range args {
		addresses = append(addresses, a)
		if _, v, ok := strings.Cut(a, "="); ok { // --ollama-host=URL
			addresses = append(addresses, v)
		}
	}
	secrets := models.Secrets(addresses, "")
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
