package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ocean-safety/ingest/schema"
)

// Server is a model server's client as the start-up checks and the pool
// use it: where it is, whether it answers, and its models. Every client
// implements it, and what it serves on top: Chatter, Embedder or both.
// Its calls make one try; the callers retry.
//
// Abilities a server may have are found by type assertion where they are
// used: a chat server whose JSON-schema mode is strict says so with
// StrictSchema() bool (remote's strictSchema); a pool adds Slots, Stats
// and the routing of documents (Count, Route, Healthy).
type Server interface {
	// Where names the server for messages: "ollama at http://…".
	Where() string
	// Ping checks, with a single try, that the server answers at all.
	Ping(ctx context.Context) error
	// Lookup finds a model on the server.
	Lookup(ctx context.Context, model string) (ModelInfo, error)
}

// ModelInfo is what a server says of one of its models.
type ModelInfo struct {
	Digest string // short, "sha256:0123456789ab"; stands for the weights, where a tag can move
	Dims   int    // embedding width; 0: unknown, probe
	Window int    // context window in tokens; 0: unknown
	Slots  int    // calls the server says it answers at once (llama-server's /props); 0: it does not say
}

// ErrModelMissing is a model the server does not have.
func ErrModelMissing(where, model, fix string) error {
	return fmt.Errorf("%s has no model %q: %s", where, model, fix)
}

// MaxAnswerBytes bounds one answer of a model server.
const MaxAnswerBytes = 64 << 20 // a batch of ten 4096-float vectors in JSON is under 1 MB; more is a broken server

// ErrAnswerTooLarge is an answer over MaxAnswerBytes: a hostile or broken
// server cannot fill memory, whichever call it answers.
var ErrAnswerTooLarge = fmt.Errorf("the answer is over %d MB", MaxAnswerBytes>>20)

// ReadAnswer reads a server's answer into buf (reset first). The body of
// every answer is bounded where it is received (NewHTTPClient's
// transport): one over MaxAnswerBytes is ErrAnswerTooLarge, and a cut
// answer is an error, never half a JSON document.
func ReadAnswer(buf *bytes.Buffer, body io.Reader) error {
	buf.Reset()
	_, err := buf.ReadFrom(body)
	return err
}

// boundedBody is an answer's body that fails past MaxAnswerBytes.
type boundedBody struct {
	io.ReadCloser
	read int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if left := MaxAnswerBytes - b.read; int64(len(p)) > left+1 {
		p = p[:left+1] // one byte past the bound tells an answer over it
	}
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if b.read > MaxAnswerBytes {
		return n - int(b.read-MaxAnswerBytes), ErrAnswerTooLarge
	}
	return n, err
}

// AnswerBuffers are reused between calls: an embedding answer is hundreds
// of kilobytes.
var AnswerBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Embedder is a server that embeds: what the embedder backed by a server
// (remote.ModelEmbedder) needs of it. One call, no retries.
type Embedder interface {
	Where() string
	Embed(ctx context.Context, req EmbedRequest) (EmbedResult, error)
}

type EmbedRequest struct {
	Model  string
	Texts  []string
	NumCtx int // context window to ask for; 0: the server's default
	Dims   int // the width expected, to size the answer's vectors (0: unknown)
}

type EmbedResult struct {
	Vectors [][]float32
	Tokens  int // the server's count of input tokens for the batch; 0: not reported
}

// Chatter is a server that chats: messages in, the answer's raw text and
// what the server said of its work out; what the header writer backed by a
// server (remote.ModelHeaders) needs of it. One call, no retries:
// ModelHeaders retries around it.
type Chatter interface {
	Where() string
	Chat(ctx context.Context, req ChatRequest) (ChatAnswer, error)
}

// ChatAnswer is a chat call's answer.
type ChatAnswer struct {
	Content string
	Usage   schema.Usage // Calls 1 when the server counted the call's tokens
	Times   ServerTimes
	From    int // the pool's endpoint that answered (0 for a server alone): a hedge's answer is another server's
}

// ServerTimes are what a server says of a call's time (zero: nothing).
type ServerTimes struct {
	Work  time.Duration // working on it, loading the model included
	Total time.Duration // from taking the request to the answer, any wait for a slot included (Ollama's total_duration)
	Load  time.Duration // of work, loading the model (Ollama's load_duration)
}

type ChatRequest struct {
	Model    string
	Messages []ChatMessage
	Schema   json.RawMessage
	NumCtx   int // context window to ask for; 0: the server's default
}

type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Loaded is the time the server spent loading the model for the call.
func (a ChatAnswer) Loaded() time.Duration { return a.Times.Load }
