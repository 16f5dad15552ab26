package redact

import "strings"

// CommandLine is what of a command line's arguments may hold a secret, for
// Secrets: every argument, and a flag's value after "=" on its own
// (--ollama-host=URL).
func CommandLine(args []string) []string {
	var values []string
	for _, a := range args {
		values = append(values, a)
		if _, v, ok := strings.Cut(a, "="); ok { // --ollama-host=URL
			values = append(values, v)
		}
	}
	return values
}
