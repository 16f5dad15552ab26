package schema

// ModelStats counts a model backend's work, for the run report.
type ModelStats struct {
	Calls     int64 `json:"calls"`     // model calls that answered, repairs included
	Retries   int64 `json:"retries"`   // tries beyond the first (429, 5xx, timeouts, malformed answers)
	Repairs   int64 `json:"repairs"`   // header answers that failed validation and were sent back once
	Fallbacks int64 `json:"fallbacks"` // chunks whose repair failed too: extractive header used
	// Invalid counts the answers that failed a check, by reason (a chunk's
	// first answer and its repair each count).
	Invalid map[string]int64 `json:"invalid_answers,omitempty"`
	// BadThresholds counts the thresholds of the wrong shape in answers
	// (an unknown subject or comparator, a value that is no finite number,
	// a key missing), each item once: dropped with their answer.
	BadThresholds int64 `json:"bad_thresholds,omitempty"`
	// Endpoints is each server's share when calls were spread over several
	// (a list of hosts); the header writer and the embedder of one kind of
	// server share them, so both list the same calls.
	Endpoints []EndpointStats `json:"endpoints,omitempty"`
	// Usage is what the servers said of the calls' tokens and time.
	Usage *Usage `json:"usage,omitempty"`
}

// Usage is what model servers said of their work, summed over the calls
// whose answers said it: the measured side of a plan's estimate.
type Usage struct {
	Calls        int64 `json:"calls"`         // answers that counted their tokens
	PromptTokens int64 `json:"prompt_tokens"` // Ollama's prompt_eval_count, OpenAI's usage.prompt_tokens: every prompt token, cached or not
	// CachedTokens are the prompt tokens read from the server's prompt
	// cache, where it says (OpenAI's prompt_tokens_details.cached_tokens;
	// Ollama does not: its prompt_eval_duration shrinks instead).
	CachedTokens  int64   `json:"cached_tokens,omitempty"`
	AnswerTokens  int64   `json:"answer_tokens"`            // eval_count, completion_tokens
	PromptSeconds float64 `json:"prompt_seconds,omitempty"` // Ollama's prompt_eval_duration: reading what the cache did not hold
	AnswerSeconds float64 `json:"answer_seconds,omitempty"` // Ollama's eval_duration: writing the answer
}

// Add adds u's counts to these.
func (t *Usage) Add(u Usage) {
	t.Calls += u.Calls
	t.PromptTokens += u.PromptTokens
	t.CachedTokens += u.CachedTokens
	t.AnswerTokens += u.AnswerTokens
	t.PromptSeconds += u.PromptSeconds
	t.AnswerSeconds += u.AnswerSeconds
}

// EndpointStats is one model server's share of a run's calls.
type EndpointStats struct {
	Endpoint string `json:"endpoint"`           // its address, credentials removed
	Calls    int    `json:"calls"`              // calls sent to it, failed ones and look-ups included
	Hedges   int    `json:"hedges,omitempty"`   // of those, calls it took for a slower endpoint's trial (the first answer was used)
	LeftOut  string `json:"left_out,omitempty"` // why it was left out of the run (other weights), if it was
	// InFlight is the header calls in flight it settled at, and
	// InFlightFrom where that came from: learned, server (what it says of
	// itself) or fixed (llm_concurrency).
	InFlight     int    `json:"calls_in_flight,omitempty"`
	InFlightFrom string `json:"calls_in_flight_from,omitempty"`
}

// Truncation is an input a server may have cut to fit its context window:
// its estimated length is over the window, or the server counted markedly
// fewer tokens for its batch than estimated (then the batch's longest input
// is named). Ollama is asked not to truncate, so there it means a server
// ignoring truncate=false; OpenAI-compatible servers may cut silently.
type Truncation struct {
	Excerpt         string `json:"excerpt"`    // the input's first characters
	InputHash       string `json:"input_hash"` // hex SHA-256 of the whole input (the chunk's embed input)
	EstimatedTokens int    `json:"estimated_tokens"`
	Window          int    `json:"window"`       // the model's context window; 0: unknown
	BatchTokens     int    `json:"batch_tokens"` // the server's count for the input's batch; 0: not reported
}

// Add adds o's counts to these: calls, retries, repairs, fallbacks, bad
// thresholds, invalid answers by reason, what the servers said of their
// work (usage), and each server's calls and hedges (a server new to these
// is added with o's record of it).
func (s *ModelStats) Add(o ModelStats) {
	s.Calls += o.Calls
	s.Retries += o.Retries
	s.BadThresholds += o.BadThresholds
	s.Repairs += o.Repairs
	s.Fallbacks += o.Fallbacks
	if o.Usage != nil {
		if s.Usage == nil {
			s.Usage = &Usage{}
		}
		s.Usage.Add(*o.Usage)
	}
	for k, n := range o.Invalid {
		if s.Invalid == nil {
			s.Invalid = map[string]int64{}
		}
		s.Invalid[k] += n
	}
next:
	for _, e := range o.Endpoints {
		for i := range s.Endpoints {
			if s.Endpoints[i].Endpoint == e.Endpoint {
				s.Endpoints[i].Calls += e.Calls
				s.Endpoints[i].Hedges += e.Hedges
				continue next
			}
		}
		s.Endpoints = append(s.Endpoints, e)
	}
}

// AddStats adds b's counts to a's, either of which may be nil (a report
// without model calls), and returns the sum.
func AddStats(a, b *ModelStats) *ModelStats {
	if b == nil {
		return a
	}
	if a == nil {
		a = &ModelStats{}
	}
	a.Add(*b)
	return a
}
