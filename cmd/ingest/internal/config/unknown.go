package config

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/forgive"
)

// freeMaps are the keys whose own keys are the user's to choose (a path
// pattern, a server kind): nothing under them is unknown here.
var freeMaps = []string{"diagnostics.paths", "hosts", "source_url_templates"}

// knownKeys are every key the file format has, dotted: the defaults
// written out, so the list is the structs' own.
var knownKeys = sync.OnceValue(func() map[string]bool {
	b, err := yaml.Marshal(Default())
	if err != nil {
		panic(err) // the defaults always marshal
	}
	file, err := parser.ParseBytes(b, 0)
	if err != nil {
		panic(err)
	}
	out := map[string]bool{}
	for k := range keys(file) {
		out[k] = true
	}
	return out
})

// unknownKeys reports every key of set (a file's keys by line) that the
// format does not have, each with its line and the nearest key it has (a
// typo's), in the order of the file: all of them at once, as flags'
// typos are.
func unknownKeys(set map[string]int) error {
	known := knownKeys()
	var bad []string
	for key := range set {
		if known[key] || underFreeMap(key) || parentUnknown(key, known) {
			continue
		}
		bad = append(bad, key)
	}
	sort.Slice(bad, func(i, j int) bool { return set[bad[i]] < set[bad[j]] })
	var errs []error
	for _, key := range bad {
		msg := fmt.Sprintf("line %d: unknown key %q", set[key], key)
		if near := nearestKey(key, known); near != "" {
			msg += fmt.Sprintf(": did you mean %s?", near)
		} else if looksSecret(key) {
			msg += ": a secret is never read from the config file; give it in the environment (ingest index --help names each variable)"
		}
		errs = append(errs, errors.New(msg))
	}
	return errors.Join(errs...)
}

func underFreeMap(key string) bool {
	for _, m := range freeMaps {
		if strings.HasPrefix(key, m+".") {
			return true
		}
	}
	return false
}

// parentUnknown: a key under an unknown key is reported once, as its
// parent.
func parentUnknown(key string, known map[string]bool) bool {
	i := strings.LastIndex(key, ".")
	return i > 0 && !known[key[:i]]
}

// nearestKey is the known key of the same parent nearest to key's last
// part, else a known key elsewhere ending in that part (max → chunk.max).
func nearestKey(key string, known map[string]bool) string {
	parent, last := "", key
	if i := strings.LastIndex(key, "."); i >= 0 {
		parent, last = key[:i+1], key[i+1:]
	}
	var siblings []string
	for k := range known {
		if rest, ok := strings.CutPrefix(k, parent); ok && !strings.Contains(rest, ".") {
			siblings = append(siblings, rest)
		}
	}
	sort.Strings(siblings)
	if n := forgive.Nearest(last, siblings); n != "" {
		return parent + n
	}
	var elsewhere []string
	for k := range known {
		if strings.HasSuffix(k, "."+last) {
			elsewhere = append(elsewhere, k)
		}
	}
	sort.Strings(elsewhere)
	if len(elsewhere) > 0 {
		return strings.Join(elsewhere, " or ")
	}
	return ""
}
