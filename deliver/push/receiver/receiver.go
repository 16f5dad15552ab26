package receiver

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Path is where the receiver takes pushes; tasks live under /tasks/.
const Path = "/ingest"

// maxBody is the largest decompressed body the receiver reads.
const maxBody = 64 << 20

// Options shape a receiver.
type Options struct {
	Token string // the bearer token every request must carry ("" for none)
	// AsyncEvery answers every n-th new request 202 with a task (0: never);
	// odd tasks are named in a Location header, even ones in the body.
	AsyncEvery int
	// TaskPolls is how many polls a task answers "running" before it is
	// done (the change is applied when it is).
	TaskPolls int
	// Fault, when set, may answer the n-th arrival (from 1) otherwise.
	Fault func(n int, r *Request) Action
	// OnArrive and OnPoll run first in the handler of the n-th arrival
	// and the n-th poll: a kill test freezes the receiver and kills the
	// client from there, and returns true to drop the request unanswered
	// (it died with its client).
	OnArrive func(n int, r *Request) (drop bool)
	OnPoll   func(n int) (drop bool)
	// GoneTasks answers a poll of an unknown task 410 Gone (else 404).
	GoneTasks bool
}

// Request is what a hook knows of an arrival.
type Request struct {
	Key, Op string
	Docs    []string // the doc_path of every document in an upsert
	Header  http.Header
}

// Action is a scripted answer. The zero Action handles the request.
type Action struct {
	Status     int           // answer this status and Body, without handling
	RetryAfter string        // with this Retry-After header
	Body       string        //
	Stall      time.Duration // wait this long (or until the client goes) first
	Redirect   string        // answer 307 to this URL
	Huge       int           // answer 200 with a body of this many bytes
	FailTask   string        // answer 202; the task fails with this message
	LoseAnswer bool          // apply, then answer 503: an acknowledgement lost on the way
}

// Stats are what the receiver saw.
type Stats struct {
	Requests       int      `json:"requests"`         // arrivals at Path
	Upserts        int      `json:"upserts"`          // upsert requests applied
	Deletes        int      `json:"deletes"`          // delete requests applied
	Bytes          int64    `json:"bytes"`            // request bodies as sent (gzip)
	Replays        int      `json:"replays"`          // arrivals with a key already handled, answered from the stored answer
	ResentAfterAck int      `json:"resent_after_ack"` // arrivals of a key the receiver had acknowledged (2xx) before
	DoubleApplied  int      `json:"double_applied"`   // keys applied more than once (must stay 0)
	Polls          int      `json:"polls"`
	MaxInFlight    int      `json:"max_in_flight"`
	MaxTasks       int      `json:"max_tasks"` // tasks pending at once, at most
	Invalid        []string `json:"invalid"`   // requests that broke the contract
	Resent         []string `json:"resent"`    // the keys ResentAfterAck counts, with their documents
}

// Receiver is a running reference receiver.
type Receiver struct {
	*httptest.Server
	URL string // the push URL (server + Path)

	opt     Options
	schemas *Schemas
	mu      sync.Mutex
	stats   Stats
	store   store
	answers map[string]answer // idempotency key → the answer given
	acked   map[string]bool
	applied map[string]int
	busy    map[string]bool // keys being handled
	tasks   map[string]*task
	taskN   int
	arrived int
	polled  int
	flight  int
	frozen  bool
	gen     int             // freezes and thaws so far: a handler that arrived before one never applies
	seen    map[string]bool // trace ids of the clients that sent a request since the last Thaw
	gone    map[string]bool // trace ids of the clients Thaw took for killed (see killed)
	active  int             // handlers past the freeze check, not yet answered
	idle    *sync.Cond      // signalled when active falls
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

type task struct {
	key   string
	polls int
	fail  string
	apply func()
	done  bool
}

// New starts a receiver; Close stops it.
func New(opt Options) (*Receiver, error) {
	s, err := LoadSchemas()
	if err != nil {
		return nil, err
	}
	r := &Receiver{opt: opt, schemas: s, store: store{}, answers: map[string]answer{}, acked: map[string]bool{},
		applied: map[string]int{}, busy: map[string]bool{}, tasks: map[string]*task{}, seen: map[string]bool{}, gone: map[string]bool{}}
	r.idle = sync.NewCond(&r.mu)
	mux := http.NewServeMux()
	mux.HandleFunc(Path, r.push)
	mux.HandleFunc("/tasks/", r.poll)
	r.Server = httptest.NewServer(mux)
	r.URL = r.Server.URL + Path
	return r, nil
}

// Stats returns a copy of what the receiver saw.
func (r *Receiver) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.stats
	s.Invalid = append([]string(nil), s.Invalid...)
	s.Resent = append([]string(nil), s.Resent...)
	return s
}

// Acked is the idempotency keys the receiver acknowledged (2xx).
func (r *Receiver) Acked() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for k := range r.acked {
		out = append(out, k)
	}
	return out
}

// Freeze makes every handler that has not yet decided what to do wait for
// its client to go, doing nothing: the server as a killed client last saw
// it. It returns once the handlers that had decided have answered, so
// Acked then lists every key the client can have been told of. Thaw
// undoes it.
func (r *Receiver) Freeze() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.frozen = true
	r.gen++
	for r.active > 0 {
		r.idle.Wait()
	}
}

// Thaw ends Freeze. A request that arrived before it (from the killed
// client) is never applied after it; and every client seen before it has
// been killed or has finished, so a request of theirs that the server reads
// only now is none of the next run's (see killed).
func (r *Receiver) Thaw() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.frozen = false
	r.gen++
	for trace := range r.seen {
		r.gone[trace] = true
	}
	clear(r.seen)
}

// killed reports whether req comes from a client Thaw took for gone, by the
// trace id of its traceparent (one a push process), and notes its client
// otherwise. A killed process can leave a whole request in its socket that
// the server reads only after the process is gone and the receiver thawed
// (on a loaded machine the connection's goroutine runs late): applied then,
// it would be an acknowledgement no client saw, which the next run rightly
// sends again. Such a request is answered 410 and neither counted nor
// applied.
func (r *Receiver) killed(req *http.Request) bool {
	trace := strings.Split(req.Header.Get("Traceparent"), "-")
	if len(trace) != 4 {
		return false // no trace context: check refuses it
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gone[trace[1]] {
		return true
	}
	r.seen[trace[1]] = true
	return false
}

// Restart forgets what a receiver keeps in memory only: its tasks (their
// changes never applied) and its idempotency answers, as a receiver
// restarted with its task store gone; what it stored stays.
func (r *Receiver) Restart() {
	r.mu.Lock()
	defer r.mu.Unlock()
	clear(r.tasks)
	clear(r.answers)
	clear(r.acked)
}

// SetOptions replaces the hooks and faults between pushes.
func (r *Receiver) SetOptions(opt Options) { r.mu.Lock(); r.opt = opt; r.mu.Unlock() }

// ResetStats zeroes the counters (what is stored and the keys stay).
func (r *Receiver) ResetStats() {
	r.mu.Lock()
	r.stats = Stats{}
	r.arrived, r.polled = 0, 0
	r.mu.Unlock()
}

var (
	traceparentRe = regexp.MustCompile(`^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$`)
	keyRe         = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

func (r *Receiver) invalid(w http.ResponseWriter, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	r.mu.Lock()
	r.stats.Invalid = append(r.stats.Invalid, msg)
	r.mu.Unlock()
	http.Error(w, msg, http.StatusBadRequest)
}

// enter lets a handler go on unless the receiver is frozen; then it waits
// for its client to go and returns false. A handler that entered calls
// leave when it has answered.
func (r *Receiver) enter(req *http.Request, gen int) bool {
	r.mu.Lock()
	frozen := r.frozen || gen != r.gen
	if !frozen {
		r.active++
	}
	r.mu.Unlock()
	if frozen {
		<-req.Context().Done()
	}
	return !frozen
}

func (r *Receiver) leave() {
	r.mu.Lock()
	r.active--
	r.idle.Broadcast()
	r.mu.Unlock()
}

func (r *Receiver) push(w http.ResponseWriter, req *http.Request) {
	if r.killed(req) {
		http.Error(w, "from a client killed before the receiver thawed", http.StatusGone)
		return
	}
	r.mu.Lock()
	r.flight++
	r.stats.MaxInFlight = max(r.stats.MaxInFlight, r.flight)
	r.arrived++
	n, opt, gen := r.arrived, r.opt, r.gen
	r.stats.Requests++
	r.mu.Unlock()
	defer func() { r.mu.Lock(); r.flight--; r.mu.Unlock() }()

	raw, err := io.ReadAll(io.LimitReader(req.Body, maxBody))
	if err != nil {
		return // the client went
	}
	r.mu.Lock()
	r.stats.Bytes += int64(len(raw))
	r.mu.Unlock()
	body, rq, ok := r.check(w, req, raw, opt)
	if !ok {
		return
	}
	if opt.OnArrive != nil && opt.OnArrive(n, rq) {
		return
	}
	if !r.enter(req, gen) {
		return
	}
	defer r.leave()
	var act Action
	if opt.Fault != nil {
		act = opt.Fault(n, rq)
	}
	if act.Stall > 0 {
		select {
		case <-time.After(act.Stall):
		case <-req.Context().Done():
			return
		}
	}
	switch {
	case act.Redirect != "":
		http.Redirect(w, req, act.Redirect, http.StatusTemporaryRedirect)
		return
	case act.Huge > 0:
		w.WriteHeader(http.StatusOK)
		w.Write(bytes.Repeat([]byte("x"), act.Huge))
		return
	case act.Status != 0:
		if act.RetryAfter != "" {
			w.Header().Set("Retry-After", act.RetryAfter)
		}
		http.Error(w, act.Body, act.Status)
		return
	}
	r.handle(w, rq, body, act)
}

// check reads and checks a request against the contract: headers, gzip,
// the idempotency key, the schema.
func (r *Receiver) check(w http.ResponseWriter, req *http.Request, raw []byte, opt Options) ([]byte, *Request, bool) {
	h := req.Header
	switch {
	case req.Method != http.MethodPost:
		r.invalid(w, "method %s, want POST", req.Method)
	case h.Get("Content-Type") != "application/json":
		r.invalid(w, "Content-Type %q, want application/json", h.Get("Content-Type"))
	case h.Get("Content-Encoding") != "gzip":
		r.invalid(w, "Content-Encoding %q, want gzip", h.Get("Content-Encoding"))
	case h.Get("Ingest-Push-Contract") != "1":
		r.invalid(w, "Ingest-Push-Contract %q, want 1", h.Get("Ingest-Push-Contract"))
	case !traceparentRe.MatchString(h.Get("Traceparent")):
		r.invalid(w, "traceparent %q is not W3C trace context", h.Get("Traceparent"))
	case !keyRe.MatchString(h.Get("Idempotency-Key")):
		r.invalid(w, "Idempotency-Key %q, want 64 hex digits", h.Get("Idempotency-Key"))
	case opt.Token != "" && h.Get("Authorization") != "Bearer "+opt.Token:
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	default:
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			r.invalid(w, "body is not gzip: %v", err)
			return nil, nil, false
		}
		body, err := io.ReadAll(io.LimitReader(zr, maxBody))
		if err != nil {
			r.invalid(w, "body is not gzip: %v", err)
			return nil, nil, false
		}
		sum := sha256.Sum256(body)
		if key := h.Get("Idempotency-Key"); key != hex.EncodeToString(sum[:]) {
			r.invalid(w, "Idempotency-Key %s is not the SHA-256 of the body", key)
			return nil, nil, false
		}
		if err := Validate(r.schemas.Request, body); err != nil {
			r.invalid(w, "body does not match push.schema.json: %v", err)
			return nil, nil, false
		}
		var env envelope
		if err := json.Unmarshal(body, &env); err != nil {
			r.invalid(w, "body: %v", err)
			return nil, nil, false
		}
		rq := &Request{Key: h.Get("Idempotency-Key"), Op: env.Operation, Header: h.Clone()}
		for _, d := range env.Documents {
			rq.Docs = append(rq.Docs, d.DocPath)
		}
		return body, rq, true
	}
	return nil, nil, false
}

// handle applies a request once per key and answers; a key seen before is
// answered as it was the first time.
func (r *Receiver) handle(w http.ResponseWriter, rq *Request, body []byte, act Action) {
	r.mu.Lock()
	if r.acked[rq.Key] {
		r.stats.ResentAfterAck++
		r.stats.Resent = append(r.stats.Resent, fmt.Sprintf("%s %s %v", rq.Key[:12], rq.Op, rq.Docs))
	}
	if a, ok := r.answers[rq.Key]; ok {
		r.stats.Replays++
		r.mu.Unlock()
		a.write(w)
		return
	}
	if r.busy[rq.Key] {
		r.mu.Unlock()
		http.Error(w, "a request with this Idempotency-Key is in progress", http.StatusConflict)
		return
	}
	r.busy[rq.Key] = true
	r.mu.Unlock()
	defer func() { r.mu.Lock(); delete(r.busy, rq.Key); r.mu.Unlock() }()

	var env envelope
	json.Unmarshal(body, &env) // checked against the schema already
	apply := func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.applied[rq.Key]++; r.applied[rq.Key] == 2 {
			r.stats.DoubleApplied++
		}
		r.store.apply(env)
		if env.Operation == "delete" {
			r.stats.Deletes++
		} else {
			r.stats.Upserts++
		}
	}
	r.mu.Lock()
	async := r.opt.AsyncEvery > 0 && (len(r.answers)+1)%r.opt.AsyncEvery == 0 || act.FailTask != ""
	r.mu.Unlock()
	var a answer
	switch {
	case act.LoseAnswer:
		apply()
		r.remember(rq.Key, answer{status: http.StatusOK, body: []byte(`{"status":"succeeded"}`)})
		http.Error(w, "lost", http.StatusServiceUnavailable)
		return
	case async:
		a = r.newTask(rq.Key, apply, act.FailTask)
	default:
		apply()
		a = answer{status: http.StatusOK, header: http.Header{"Content-Type": {"application/json"}}, body: []byte(`{"status":"succeeded"}`)}
	}
	r.remember(rq.Key, a)
	a.write(w)
}

func (r *Receiver) remember(key string, a answer) {
	r.mu.Lock()
	r.answers[key], r.acked[key] = a, true
	r.mu.Unlock()
}

func (r *Receiver) newTask(key string, apply func(), fail string) answer {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.taskN++
	id := fmt.Sprintf("t%d", r.taskN)
	r.tasks[id] = &task{key: key, polls: r.opt.TaskPolls, fail: fail, apply: apply}
	pending := 0
	for _, t := range r.tasks {
		if !t.done {
			pending++
		}
	}
	r.stats.MaxTasks = max(r.stats.MaxTasks, pending)
	a := answer{status: http.StatusAccepted, header: http.Header{"Content-Type": {"application/json"}}}
	if r.taskN%2 == 1 {
		a.header.Set("Location", "/tasks/"+id)
		a.body = []byte(`{"status":"queued"}`)
	} else {
		a.body = []byte(`{"task_url":"/tasks/` + id + `"}`)
	}
	return a
}

func (r *Receiver) poll(w http.ResponseWriter, req *http.Request) {
	if r.killed(req) {
		http.Error(w, "from a client killed before the receiver thawed", http.StatusGone)
		return
	}
	r.mu.Lock()
	r.polled++
	r.stats.Polls++
	n, opt, gen := r.polled, r.opt, r.gen
	r.mu.Unlock()
	if req.Method != http.MethodGet {
		r.invalid(w, "task poll with %s, want GET", req.Method)
		return
	}
	if opt.Token != "" && req.Header.Get("Authorization") != "Bearer "+opt.Token {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if !traceparentRe.MatchString(req.Header.Get("Traceparent")) {
		r.invalid(w, "poll without traceparent")
		return
	}
	if opt.OnPoll != nil && opt.OnPoll(n) {
		return
	}
	if !r.enter(req, gen) {
		return
	}
	defer r.leave()
	id := strings.TrimPrefix(req.URL.Path, "/tasks/")
	r.mu.Lock()
	t, ok := r.tasks[id]
	if !ok {
		r.mu.Unlock()
		if opt.GoneTasks {
			http.Error(w, "no such task", http.StatusGone)
			return
		}
		http.Error(w, "no such task", http.StatusNotFound)
		return
	}
	status, msg := "running", ""
	switch {
	case t.done && t.fail != "":
		status, msg = "failed", t.fail
	case t.done:
		status = "succeeded"
	case t.polls > 0:
		t.polls--
	case t.fail != "":
		t.done, status, msg = true, "failed", t.fail
		delete(r.answers, t.key) // a failed task is no answer to keep: the key may be sent again
		delete(r.acked, t.key)
	default:
		t.done, status = true, "succeeded"
	}
	apply := t.apply
	if status == "succeeded" {
		t.apply = nil // once
	}
	r.mu.Unlock()
	if status == "succeeded" && apply != nil {
		apply()
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"status": status, "message": msg})
}

func (a answer) write(w http.ResponseWriter) {
	for k, vs := range a.header {
		w.Header()[k] = vs
	}
	w.WriteHeader(a.status)
	w.Write(a.body)
}
