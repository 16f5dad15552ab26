package backends

import (
	"strings"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/ollama"
	"github.com/ocean-safety/ingest/models/openai"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/models/tei"
)

// kinds are the kinds of model server a backend setting names, in the
// order the command line lists them: a new one is a client package and
// an entry here. Everything else reads it from here: the settings'
// prefixes (--llm ollama:MODEL), the address flags and their variables,
// the addresses' keys in BackendConfig.Addrs, and what each serves.
var kinds = []Kind{
	register(Kind{Name: "ollama", Flag: "ollama-host", Env: "OLLAMA_HOST",
		Usage: "Ollama server address (default http://127.0.0.1:11434); several, comma-separated, share the calls (least busy first; one that fails rests while the others go on)"},
		func(addr string, c models.BackendConfig, r *server.Retrier) (*ollama.Client, error) {
			return ollama.New(addr, c.OllamaAuth, c.OllamaKey, c.Timeout, r)
		}),
	register(Kind{Name: "openai", Flag: "openai-base-url", Env: "OPENAI_BASE_URL",
		Usage: "OpenAI-compatible server address, used as given (…/v1; several, comma-separated, share the calls); the API key is read from $OPENAI_API_KEY"},
		func(addr string, c models.BackendConfig, r *server.Retrier) (*openai.Client, error) {
			return openai.New(addr, c.OpenAIKeyEnv, c.OpenAIKey, c.Timeout, r)
		}),
	register(Kind{Name: "tei", Flag: "tei-url", Env: "INGEST_TEI_URL",
		Usage: "Hugging Face text-embeddings-inference server address, for --embedder tei:MODEL (MODEL as its /info names it; it serves no headers); several, comma-separated, share the calls"},
		func(addr string, c models.BackendConfig, r *server.Retrier) (*tei.Client, error) {
			return tei.New(addr, c.Timeout, r)
		}),
}

// Kind is one kind of model server: its name, which prefixes a backend
// setting ("ollama" in --llm ollama:MODEL) and keys its address in
// BackendConfig.Addrs; its address setting as the command line offers it
// (a flag, the variable the flag reads, its help); what it serves, read
// off its client's type; and how its client is opened at an address.
type Kind struct {
	Name  string // "ollama"
	Flag  string // "ollama-host"
	Env   string // "OLLAMA_HOST"
	Usage string // the flag's help

	chats, embeds bool
	open          func(addr string, cfg models.BackendConfig, r *server.Retrier) (server.Server, error)
}

// Ability is what a kind of server does for a run.
type Ability int

const (
	Chat  Ability = iota // writes headers (--llm): its client is a server.Chatter
	Embed                // embeds (--embedder): its client is a server.Embedder
)

func (a Ability) String() string {
	if a == Chat {
		return "chat"
	}
	return "embeddings"
}

// Serves reports whether k's servers do a.
func (k Kind) Serves(a Ability) bool {
	if a == Chat {
		return k.chats
	}
	return k.embeds
}

// register completes k with the constructor of its client, a C. What the
// kind serves is read off C's methods, not said beside them: a client
// that has no Chat cannot be named by --llm, and one that gains it can.
func register[C server.Server](k Kind, open func(addr string, cfg models.BackendConfig, r *server.Retrier) (C, error)) Kind {
	var c C // a nil *Client: its type has the methods
	_, k.chats = any(c).(server.Chatter)
	_, k.embeds = any(c).(server.Embedder)
	k.open = func(addr string, cfg models.BackendConfig, r *server.Retrier) (server.Server, error) {
		c, err := open(addr, cfg, r)
		if err != nil {
			return nil, err // not a nil *Client in a non-nil server.Server
		}
		return c, nil
	}
	return k
}

// Kinds are the kinds of model server, in the order registered: the
// command line's address flags.
func Kinds() []Kind { return append([]Kind(nil), kinds...) }

// lookupKind is the kind named name.
func lookupKind(name string) (Kind, bool) {
	for _, k := range kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Specs names the settings of the kinds that do a, for a message or a
// flag's help: "ollama:MODEL or openai:MODEL".
func Specs(a Ability) string {
	var specs []string
	for _, k := range kinds {
		if k.Serves(a) {
			specs = append(specs, k.Name+":MODEL")
		}
	}
	if len(specs) <= 1 {
		return strings.Join(specs, "")
	}
	return strings.Join(specs[:len(specs)-1], ", ") + " or " + specs[len(specs)-1]
}
