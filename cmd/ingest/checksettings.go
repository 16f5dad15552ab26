package main

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/forgive"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/estimate"
)

// checkSettings is the one check of the settings a command runs with (f:
// the file's, with the flags and variables over it), run by ingest config,
// index and index --plan alike before any work, so what passes ingest
// config runs: the run's, the query's and the push's settings
// (config.File.Validate), the models (backends.Check: which kinds, what
// each serves; no server is contacted), their servers' kinds, timeout and
// plan rates (that the file holds no credential, loadConfig checks as it
// reads it). Every bad setting is
// reported at once, named by the flag that set it, else by the file's
// line, else by its key.
func checkSettings(cmd *cli.Command, f config.File) error {
	m := f.Models
	errs := []error{f.Validate(), backends.Check(backendConfig(m, f.Run))}
	var kinds []string
	for _, k := range backends.Kinds() {
		kinds = append(kinds, k.Name)
	}
	hosts := make([]string, 0, len(m.Hosts))
	for k := range m.Hosts {
		hosts = append(hosts, k)
	}
	sort.Strings(hosts)
	for _, h := range hosts {
		if !slices.Contains(kinds, h) {
			msg := fmt.Sprintf("no server kind %q: want %s", h, strings.Join(kinds, ", "))
			if n := forgive.Nearest(h, kinds); n != "" {
				msg = fmt.Sprintf("no server kind %q: did you mean %s?", h, n)
			}
			errs = append(errs, schema.Setting("hosts."+h, "%s", msg))
		}
	}
	if m.ModelTimeout < time.Second || m.ModelTimeout > 24*time.Hour {
		errs = append(errs, schema.Setting("model_timeout", "%s: want 1s to 24h", m.ModelTimeout))
	}
	if m.PlanRate != "" {
		if _, err := estimate.ParseRates(m.PlanRate); err != nil {
			errs = append(errs, schema.Setting("plan_rate", "%q: %v", m.PlanRate, err))
		}
	}
	err := errors.Join(errs...)
	if err == nil {
		return nil
	}
	return usageError{errors.New(console.DescribeSettings(err, settingNames(cmd, f)))}
}

// settingNames names each setting as the user gave it: its flag when the
// command line or its variable set it (or when the file does not), else
// the file's line (config.yaml:3: default_lang).
func settingNames(cmd *cli.Command, f config.File) map[string]string {
	byKey := map[string]string{}
	for flag, key := range settingKeyFlags() {
		byKey[key] = flag
	}
	names := map[string]string{}
	for key, flag := range settingFlags {
		names[key] = flag
	}
	for key := range knownSettingKeys(f) {
		flag, hasFlag := byKey[key]
		if w := f.Where(key); w != "" && !(hasFlag && cmd.IsSet(flag)) {
			names[key] = w + ": " + key
		}
	}
	return names
}

// knownSettingKeys are the keys a bad setting may be named by: the file's.
func knownSettingKeys(f config.File) map[string]bool {
	out := map[string]bool{}
	for _, k := range f.Keys() {
		out[k] = true
	}
	return out
}
