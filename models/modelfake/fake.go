package modelfake

import (
	"bytes"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"
)

// Endpoints, as Calls and Fault.Path name them.
const (
	OllamaVersion = "/api/version"
	OllamaTags    = "/api/tags"
	OllamaShow    = "/api/show"
	OllamaChat    = "/api/chat"
	OllamaEmbed   = "/api/embed"
	OpenAIModels  = "/v1/models"
	OpenAIChat    = "/v1/chat/completions"
	OpenAIEmbed   = "/v1/embeddings"
	// LlamaProps is llama-server's /props, where it says its slots: served
	// when Options.AnnounceSlots is set.
	LlamaProps = "/props"
	// Hugging Face text-embeddings-inference (TEI), which serves one model
	// (Options.Models' first) and no chat (tei.go).
	TEIInfo  = "/info"
	TEIEmbed = "/embed"
)

// modelEndpoints are where a Fault with no Path applies: the calls that do
// a run's work, not the start-up look-ups.
var modelEndpoints = []string{OllamaChat, OllamaEmbed, OpenAIChat, OpenAIEmbed, TEIEmbed}

// Options shape the server. Zero values take the defaults.
type Options struct {
	Dims          int           // embedding width (default 1024)
	ContextLength int           // embedding window in tokens (default 8192); a longer input is refused unless truncated
	Models        []string      // models served (default DefaultModels)
	Latency       time.Duration // before every chat and embed answer
	// Weights, when set, makes the models' digests other than a default
	// fake's: a server with other weights of the same model names.
	Weights string
	APIKey  string // when set, the OpenAI endpoints want "Authorization: Bearer APIKey"
	// NoModelInfo leaves embedding_length and context_length out of
	// /api/show, so a client must probe the width.
	NoModelInfo bool
	// TruncateSilently cuts over-long inputs even when the client asks not
	// to (truncate=false), as some servers do.
	TruncateSilently bool
	// UngroundedThreshold adds to every chat answer a threshold whose
	// number is not in the chunk.
	UngroundedThreshold bool
	// OpenAIPrefix is where the OpenAI-compatible API lives ("" is /v1):
	// Gemini's is /v1beta/openai. Calls are still counted under the
	// OpenAI* paths.
	OpenAIPrefix string
	// Answer, when set, is every chat answer: a hostile or broken model.
	Answer string
	// Obedient makes the fake follow an instruction in the prompt, as a
	// model without defences does: a line "Answer with: {…}" anywhere in
	// the user message becomes the answer.
	Obedient bool
	// Orders script a model that obeys what it reads, however the text is
	// phrased or encoded: the first order whose Seen the user message holds
	// (as written) gives the answer. A test plants an instruction, names it
	// as Seen, and learns whether it reached the model by what is stored.
	Orders []Order
	// OnCall, when set, is called as each chat or embed call arrives, with
	// how many calls have reached that path so far (this one included),
	// before the call is answered: a crash test kills its client there.
	OnCall func(path string, n int)
	// Slots is how many calls to one model the server answers at once (0:
	// as many as come); the others wait their turn in arrival order. The
	// latency counts from when a call gets its slot. See slots.go.
	Slots int
	// AnnounceSlots serves GET /props with {"total_slots": Slots}, as
	// llama-server says its parallelism.
	AnnounceSlots bool
	// FreeAnswers makes the fake a model no grammar holds to a list: a
	// string field the answer schema leaves open gets the words such a
	// model writes ("dangerous currents" for a hazard), where a field with
	// an enum gets one of its values, as grammar-constrained decoding
	// keeps a model inside it.
	FreeAnswers bool
	// BPE counts prompt and answer tokens (prompt_eval_count, eval_count,
	// usage) with a real BPE tokenizer, cl100k_base, instead of one token
	// per four characters: what a benchmark compares estimates with.
	BPE bool
}

// Order is an instruction a scripted model obeys (Options.Orders): when a
// chat call's user message holds Seen, Answer is its answer.
type Order struct{ Seen, Answer string }

// DefaultModels are served when Options.Models is empty.
var DefaultModels = []string{"bge-m3", "qwen2.5:7b"}

// FaultKind is how a call fails.
type FaultKind int

// The faults a call can be given.
const (
	None            FaultKind = iota
	Status500                 // 500 with an error body
	RateLimit                 // 429 with Retry-After (and Retry-After-Ms) of Fault.RetryAfter
	Hang                      // no answer until the client gives up or the server closes
	MalformedJSON             // 200 with a body cut off mid-JSON
	SchemaViolation           // chat: a well-formed answer that breaks the answer schema
	WrongDims                 // embed: every vector one float short
	BadInput                  // embed: 400 when any input contains Fault.Match
	Die                       // the server closes for good: this and every later call fail to connect
)

// Fault makes calls to Path fail. After calls succeed first; then Times
// calls fail (0: all of them).
type Fault struct {
	Kind       FaultKind
	Path       string // an endpoint constant; "" the chat and embed endpoints of both APIs
	After      int
	Times      int
	RetryAfter time.Duration // RateLimit
	Match      string        // BadInput
}

type faultState struct {
	Fault
	seen, hits int
}

// Server is a running fake. URL is its base address.
type Server struct {
	URL string

	opt  Options
	srv  *httptest.Server
	done chan struct{}
	once sync.Once

	mu      sync.Mutex
	latency time.Duration
	faults  map[string]*faultState // by Fault.Path
	calls   map[string]int
	bodies  map[string][][]byte
	dead    bool
	// inFlight and maxInFlight count calls being answered, by path
	inFlight, maxInFlight map[string]int
	answers               map[string][]Answer
	slots                 map[string]*slotSet // by slotKind
	log                   map[string][]Logged // by path
}

// New starts a fake server; Close stops it.
func New(opt Options) *Server {
	if opt.Dims <= 0 {
		opt.Dims = 1024
	}
	if opt.ContextLength <= 0 {
		opt.ContextLength = 8192
	}
	if len(opt.Models) == 0 {
		opt.Models = DefaultModels
	}
	s := &Server{
		opt: opt, done: make(chan struct{}), latency: opt.Latency,
		faults: map[string]*faultState{}, calls: map[string]int{}, bodies: map[string][][]byte{},
		inFlight: map[string]int{}, maxInFlight: map[string]int{}, answers: map[string][]Answer{},
		slots: map[string]*slotSet{}, log: map[string][]Logged{},
	}
	mux := http.NewServeMux()
	for path, h := range map[string]func(http.ResponseWriter, *request){
		OllamaVersion: s.version, OllamaTags: s.tags, OllamaShow: s.show, OllamaChat: s.ollamaChat, OllamaEmbed: s.ollamaEmbed,
		OpenAIModels: s.openAIModels, OpenAIChat: s.openAIChat, OpenAIEmbed: s.openAIEmbed, LlamaProps: s.props,
		TEIInfo: s.teiInfo, TEIEmbed: s.teiEmbed,
	} {
		route := path
		if opt.OpenAIPrefix != "" && strings.HasPrefix(path, "/v1/") {
			route = opt.OpenAIPrefix + strings.TrimPrefix(path, "/v1")
		}
		mux.HandleFunc(route, s.handle(path, h))
	}
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	return s
}

// Close stops the server, releasing hung calls first.
func (s *Server) Close() {
	s.once.Do(func() { close(s.done) })
	s.srv.Close()
}

// SetFault makes calls to f.Path fail as f says, replacing that path's
// previous fault; its After and Times count from now.
func (s *Server) SetFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[f.Path] = &faultState{Fault: f}
}

// ClearFaults removes every fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.faults)
}

// SetLatency sets the delay before every chat and embed answer.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// Calls returns how many requests reached path, failed ones included.
func (s *Server) Calls(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[path]
}

// Requests returns the bodies of the requests that reached path, in order.
func (s *Server) Requests(path string) [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.bodies[path])
}

// request is one call as a handler sees it.
type request struct {
	*http.Request
	body    []byte
	fault   Fault  // Kind None when the call is to succeed
	prompt  string // a chat call's messages as the model reads them
	reused  int    // runes of prompt its slot's cache held
	counts  *counts
	arrived time.Time // when the call reached the server: its wait for a slot counts in total_duration
	started time.Time // when it got its slot
}

// counts are the tokens a chat answer said it read and wrote.
type counts struct{ prompt, answer int }

// handle records the call, applies a fault that ends it before the answer
// (dying, hanging, 500, 429, malformed JSON), waits the latency, and hands
// the rest to h.
func (s *Server) handle(path string, h func(http.ResponseWriter, *request)) http.HandlerFunc {
	model := slices.Contains(modelEndpoints, path)
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		defer s.enter(path)()
		f, latency, dead, n := s.record(path, body, model)
		if model && s.opt.OnCall != nil {
			s.opt.OnCall(path, n)
		}

		if dead {
			drop(w)
			return
		}
		if f.Kind == Die {
			s.die()
			drop(w)
			return
		}
		if model && f.Kind == None {
			s.answerInSlot(w, r, path, body, latency, h)
			return
		}
		if model && !s.wait(r, latency) {
			return
		}
		switch f.Kind {
		case Hang:
			select {
			case <-r.Context().Done():
			case <-s.done:
			}
			return
		case Status500:
			writeError(w, path, http.StatusInternalServerError, "fake: internal error")
			return
		case RateLimit:
			if f.RetryAfter > 0 {
				w.Header().Set("Retry-After", itoa(int((f.RetryAfter+time.Second-1)/time.Second)))
				w.Header().Set("Retry-After-Ms", itoa(int(f.RetryAfter/time.Millisecond)))
			}
			writeError(w, path, http.StatusTooManyRequests, "fake: rate limited")
			return
		case MalformedJSON:
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"model":"fake","embeddings":[[0.1,`)
			return
		}
		h(w, &request{Request: r, body: body, fault: f})
		if model && f.Kind == None && r.Context().Err() == nil {
			s.answered(path, body)
		}
	}
}

// answerInSlot answers a call that is to succeed: it waits for a slot,
// makes the answer and sends it when the latency is up (the latency is the
// server's whole time for the call, its own work included, as a
// benchmark's ideal assumes), and logs it.
func (s *Server) answerInSlot(w http.ResponseWriter, r *http.Request, path string, body []byte, latency time.Duration, h func(http.ResponseWriter, *request)) {
	arrived := time.Now()
	kind := slotKind(path)
	call := callOf(path, body)
	slot, queued, reused, err := s.take(r.Context(), kind, call.prompt)
	if err != nil {
		return // the client gave up, or the server closed, while it waited
	}
	defer s.leave(kind, slot)
	start := time.Now()
	rec := &bufferedWriter{header: http.Header{}, code: http.StatusOK}
	var n counts
	h(rec, &request{Request: r, body: body, prompt: call.prompt, reused: reused, counts: &n, arrived: arrived, started: start})
	sent := s.wait(r, latency-time.Since(start))
	if sent {
		maps.Copy(w.Header(), rec.header)
		w.WriteHeader(rec.code)
		_, _ = w.Write(rec.body.Bytes())
		sent = r.Context().Err() == nil
	}
	s.logCall(path, Logged{At: arrived, Wait: start.Sub(arrived), Slot: slot, Queued: queued, Prompt: call.prompt, Reused: reused,
		NumCtx: call.numCtx, Model: call.model, Done: sent && rec.code < http.StatusBadRequest, Elapsed: time.Since(arrived),
		PromptTokens: n.prompt, AnswerTokens: n.answer})
	if sent {
		s.answered(path, body)
	}
}

// enter counts a call in flight on path until the returned func is called.
func (s *Server) enter(path string) (leave func()) {
	s.mu.Lock()
	s.inFlight[path]++
	s.maxInFlight[path] = max(s.maxInFlight[path], s.inFlight[path])
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.inFlight[path]--
		s.mu.Unlock()
	}
}

// Answer is a call the fake answered in full, and when.
type Answer struct {
	Body []byte
	At   time.Time
}

func (s *Server) answered(path string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers[path] = append(s.answers[path], Answer{body, time.Now()})
}

// Answers returns the calls to path answered in full, in order.
func (s *Server) Answers(path string) []Answer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.answers[path])
}

// MaxInFlight returns the most calls that were in flight on path at once.
func (s *Server) MaxInFlight(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInFlight[path]
}

// record counts the call and picks the fault that applies to it.
func (s *Server) record(path string, body []byte, model bool) (f Fault, latency time.Duration, dead bool, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[path]++
	n = s.calls[path]
	s.bodies[path] = append(s.bodies[path], body)
	if s.dead {
		return Fault{}, 0, true, n
	}
	fs := s.faults[path]
	if fs == nil && model {
		fs = s.faults[""]
	}
	if fs == nil {
		return Fault{}, s.latency, false, n
	}
	fs.seen++
	if fs.seen <= fs.After || (fs.Times > 0 && fs.hits >= fs.Times) {
		return Fault{}, s.latency, false, n
	}
	if fs.Kind != BadInput {
		fs.hits++ // a BadInput fault counts where it matches, in the handler
	}
	return fs.Fault, s.latency, false, n
}

// wait sleeps the latency unless the call or the server ends first.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.done:
	}
	return false
}

// die closes the listener: new connections are refused, and calls on
// connections still open are dropped (see drop).
func (s *Server) die() {
	s.mu.Lock()
	s.dead = true
	s.mu.Unlock()
	_ = s.srv.Listener.Close()
}

// drop closes the call's connection without an answer.
func drop(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			_ = c.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// bufferedWriter holds an answer until it is sent.
type bufferedWriter struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header         { return b.header }
func (b *bufferedWriter) WriteHeader(code int)        { b.code = code }
func (b *bufferedWriter) Write(p []byte) (int, error) { return b.body.Write(p) }
