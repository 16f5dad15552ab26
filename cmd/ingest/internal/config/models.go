package config

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"
)

// Models is which models a run calls and on which servers: what the model
// flags set (--llm, --embedder, each kind's address flag, --model-timeout,
// --plan-rate), so a nightly job names them once. It holds no credential:
// an API key is read from the environment, Ollama's signing key from its
// file, and an address with a password is refused here (CheckSecrets).
// The calls in flight are the run's keys (llm_concurrency,
// llm_max_concurrency a server, embed_concurrency).
type Models struct {
	LLM      string `yaml:"llm"`      // none, or KIND:MODEL
	Embedder string `yaml:"embedder"` // builtin, or KIND:MODEL
	// Hosts are the servers' addresses by kind (ollama, openai, tei: the
	// names the command's backends register), several comma-separated.
	Hosts        map[string]string `yaml:"hosts"`
	ModelTimeout time.Duration     `yaml:"model_timeout"`
	PlanRate     string            `yaml:"plan_rate"` // PREFILL[,DECODE[,EMBED]] tokens a second, for --plan
}

// DefaultModels are the offline models: nothing to reach.
func DefaultModels() Models {
	return Models{LLM: "none", Embedder: "builtin", Hosts: map[string]string{}, ModelTimeout: defaultModelTimeout}
}

const defaultModelTimeout = 2 * time.Minute // a long header on a busy CPU server, not a dead one

// CheckSecrets refuses what the file must not hold: an address with a
// password in it. A config file is committed and shown (ingest config);
// a secret belongs in the environment or a file of its own. Each error
// names the key's line.
func (f File) CheckSecrets(envOf func(kind string) string) error {
	var errs []string
	kinds := make([]string, 0, len(f.Models.Hosts))
	for k := range f.Models.Hosts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		for _, a := range strings.Split(f.Models.Hosts[k], ",") {
			u, err := url.Parse(strings.TrimSpace(a))
			if err != nil || u.User == nil {
				continue
			}
			if _, hasPass := u.User.Password(); hasPass || u.User.Username() != "" {
				errs = append(errs, fmt.Sprintf("config %s: %shosts.%s: an address with credentials; a secret is never read from the config file: give the address in $%s",
					f.path, f.at("hosts."+k), k, envOf(k)))
				break
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// Line is the line of the file that sets key (dotted), 0 when none does.
func (f File) Line(key string) int { return f.set[key] }

// at is "line N: " for a key the file sets, else "".
func (f File) at(key string) string {
	if n := f.Line(key); n > 0 {
		return fmt.Sprintf("line %d: ", n)
	}
	return ""
}

// secretWords mark a key a user may have meant for a credential.
var secretWords = []string{"key", "token", "password", "secret", "auth"}

// looksSecret reports whether an unknown key names a credential.
func looksSecret(key string) bool {
	last := key[strings.LastIndex(key, ".")+1:]
	return slices.ContainsFunc(secretWords, func(w string) bool { return strings.Contains(strings.ToLower(last), w) })
}
