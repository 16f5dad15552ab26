package backends

// The real-Ollama tier: the Ollama backends against a real server that
// serves two tiny random-weight models made by ci/tinymodels. `just
// test-ollama` (.ci/ollama.sh test) builds the server once, starts it and
// runs these tests; without INGEST_OLLAMA_HOST they skip. The models' answers
// are placeholders, so these tests check plumbing and shape: requests reach
// the server, answers decode and validate, N texts give N vectors of the
// model's width that differ with their input, names carry the server's
// digests. Content and faults are the fake server's tests
// (backend_conformance_test.go).

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/prompt"
	"github.com/ocean-safety/ingest/models/remote"
	"github.com/ocean-safety/ingest/schema"
)

const (
	realTimeout = 60 * time.Second // per call: a cold model load on a busy 2-core machine, with room
	realBudget  = 3 * time.Minute  // per test; the tier takes a few seconds
	// tinyChat is ci/tinymodels' chat model. Under a JSON-schema grammar it
	// fills every free string with "Tiny model" and closes each object and
	// array as soon as the grammar allows, so its answer validates; a
	// fallback from it means the schema never reached the server's grammar.
	tinyChat = "tiny-chat"
)

// realServer is the server under test and the models it serves.
type realServer struct {
	host, chat, embed string
}

func realOllama(t *testing.T) realServer {
	t.Helper()
	host := os.Getenv("INGEST_OLLAMA_HOST")
	if host == "" {
		t.Skip("INGEST_OLLAMA_HOST is not set: the real-Ollama tier runs with `just test-ollama` " +
			"(.ci/ollama.sh test builds the server once, starts it with tiny models and sets it)")
	}
	return realServer{
		host:  host,
		chat:  cmp.Or(os.Getenv("INGEST_OLLAMA_CHAT_MODEL"), tinyChat),
		embed: cmp.Or(os.Getenv("INGEST_OLLAMA_EMBED_MODEL"), "tiny-embed"),
	}
}

func (s realServer) config() models.BackendConfig {
	return models.BackendConfig{Addrs: map[string]string{"ollama": s.host}, Timeout: realTimeout}
}

// model asks the server itself, not the backend under test, for a model's
// digest (hex, from /api/tags) and its model_info (from /api/show).
func (s realServer) model(t *testing.T, ctx context.Context, name string) (digest string, info map[string]any) {
	t.Helper()
	var list struct {
		Models []struct{ Name, Digest string }
	}
	s.ask(t, ctx, "/api/tags", nil, &list)
	for _, m := range list.Models {
		if m.Name == name || m.Name == name+":latest" {
			var show struct {
				ModelInfo map[string]any `json:"model_info"`
			}
			s.ask(t, ctx, "/api/show", map[string]string{"model": m.Name}, &show)
			return strings.TrimPrefix(m.Digest, "sha256:"), show.ModelInfo
		}
	}
	t.Fatalf("the server has no model %q: .ci/ollama.sh start creates it", name)
	return "", nil
}

// ask makes one call to the server: a GET, or a POST of in.
func (s realServer) ask(t *testing.T, ctx context.Context, path string, in, out any) {
	t.Helper()
	method, body := http.MethodGet, io.Reader(nil)
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		method, body = http.MethodPost, bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(s.host, "/")+path, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Timeout: realTimeout}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("%s %s: got %s %s", method, path, resp.Status, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
}

func realContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), realBudget)
	t.Cleanup(cancel)
	return ctx
}

func TestOllamaRealEmbed(t *testing.T) {
	s := realOllama(t)
	ctx := realContext(t)
	digest, info := s.model(t, ctx, s.embed)
	arch, _ := info["general.architecture"].(string)
	width, _ := info[arch+".embedding_length"].(float64)

	cfg := s.config()
	cfg.Embedder = "ollama:" + s.embed
	_, emb, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := emb.Dims(), int(width); got != want || want == 0 {
		t.Errorf("got Dims %d, want the server's %s.embedding_length %d", got, arch, want)
	}
	if !strings.Contains(emb.Name(), digest[:12]) {
		t.Errorf("got Name %q, want it to carry the server's digest %s", emb.Name(), digest[:12])
	}

	texts := []string{
		"Rip currents are strong channels of water flowing away from the shore.",
		"Swim parallel to the shore until you are out of the current.",
		"Correntes de retorno são canais de água que se afastam da praia.",
		"Nade paralelamente à areia até sair da corrente.",
		"Waves above 1.5 m: red flag.",
		"Ventos acima de 25 nós: bandeira vermelha.",
		"Jellyfish season runs from December to March.",
		"Água-viva: lave com água do mar, nunca com água doce.",
		"Lifeguards › Hours: 8:00–18:00",
		strings.Repeat("The water is colder than it looks. ", 20),
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("got %d vectors, want %d", len(vecs), len(texts))
	}
	for i, v := range vecs {
		if len(v) != emb.Dims() {
			t.Errorf("vector %d: got %d floats, want %d", i, len(v), emb.Dims())
		}
		if n := l2norm(v); n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
			t.Errorf("vector %d: got norm %v, want a finite non-zero vector", i, n)
		}
		for j := range i {
			if slices.Equal(v, vecs[j]) {
				t.Errorf("texts %d and %d got the same vector, want different ones", j, i)
			}
		}
	}

	// The same texts in another batch, in another order, get the same
	// vectors: answers are matched to their inputs, not to positions.
	again, err := emb.Embed(ctx, []string{texts[4], texts[0]})
	if err != nil {
		t.Fatal(err)
	}
	for k, i := range []int{4, 0} {
		if d := maxDiff(again[k], vecs[i]); d > 1e-4 {
			t.Errorf("text %d alone: vector differs from its batch vector by %g, want the same", i, d)
		}
	}
	me := emb.(*remote.ModelEmbedder)
	if got := me.Stats().Calls; got < 2 {
		t.Errorf("got %d embed calls, want at least 2", got)
	}
	if tr := me.Truncations(); len(tr) != 0 {
		t.Errorf("got truncations %v, want none", tr)
	}
}

// TestOllamaRealOverLongInput checks that the real server's refusal of an
// input over the window (its status and message, which a fake can only
// imitate) is read as a bad input and named, not as a dead server.
func TestOllamaRealOverLongInput(t *testing.T) {
	s := realOllama(t)
	ctx := realContext(t)
	cfg := s.config()
	cfg.Embedder = "ollama:" + s.embed
	_, emb, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("word ", 9000) // over maxEmbedWindow tokens in any tokenizer
	_, err = emb.Embed(ctx, []string{"a short text", long, "another short text"})
	var ie *remote.InputError
	if !errors.As(err, &ie) || ie.Index != 1 {
		t.Errorf("got error %v, want an InputError for input 1", err)
	}
}

func TestOllamaRealHeader(t *testing.T) {
	s := realOllama(t)
	ctx := realContext(t)
	digest, _ := s.model(t, ctx, s.chat)

	cfg := s.config()
	cfg.LLM = "ollama:" + s.chat
	hw, _, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hw.Name(), digest[:12]) || !strings.Contains(hw.Name(), prompt.PromptVersion) {
		t.Errorf("got Name %q, want the server's digest %s and %s", hw.Name(), digest[:12], prompt.PromptVersion)
	}

	doc, chunks := realDoc()
	for _, c := range chunks {
		e, err := hw.Header(ctx, doc, c)
		if err != nil {
			t.Fatalf("chunk %d: %v", c.Order, err)
		}
		t.Logf("chunk %d: source %s, %d calls, header %q, reject %q %v", c.Order, e.Source, e.Calls, e.Header, e.Reject, e.RejectReasons)
		if e.Header == "" || e.Calls < 1 {
			t.Errorf("chunk %d: got header %q after %d calls, want a header after at least 1", c.Order, e.Header, e.Calls)
		}
		switch {
		case e.Source == schema.HeaderModel:
		case e.Source == schema.HeaderExtractiveFallback && s.chat != tinyChat:
			// A model of the developer's choice may answer badly; the
			// fallback is then the right outcome.
		case e.Source == schema.HeaderExtractiveFallback && onlyContent(e.RejectReasons):
			// The tiny model writes "Tiny model" in every field: well-formed
			// JSON the server's grammar shaped (no not-json or schema
			// reason), refused for what it says, as it should be.
		default:
			t.Errorf("chunk %d: got source %q (reject %q for %v), want %s", c.Order, e.Source, e.Reject, e.RejectReasons, schema.HeaderModel)
		}
	}
	if got := hw.(*remote.ModelHeaders).Stats().Calls; got < int64(len(chunks)) {
		t.Errorf("got %d chat calls, want at least %d", got, len(chunks))
	}
}

func TestOllamaRealMissingModel(t *testing.T) {
	s := realOllama(t)
	const missing = "ingest-no-such-model"
	for _, tc := range []struct {
		name string
		edit func(*models.BackendConfig)
	}{
		{"llm", func(c *models.BackendConfig) { c.LLM = "ollama:" + missing }},
		{"embedder", func(c *models.BackendConfig) { c.Embedder = "ollama:" + missing }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := s.config()
			tc.edit(&cfg)
			_, _, err := Open(realContext(t), cfg)
			if want := "ollama pull " + missing; err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, models.ErrBackendSetup) {
				t.Errorf("got error %v, want a start-up error saying %q", err, want)
			}
		})
	}
}

// realDoc is a small document and two of its chunks, one per language, so
// the prompts stay short for a model that reads one token per byte.
func realDoc() (schema.Document, []schema.Chunk) {
	text := "# Rip currents\n\nSource: https://example.org/rip\n\n" +
		"## What to do\n\nIf a rip current pulls you, swim parallel to the shore. Waves above 1.5 m close the beach.\n\n" +
		"## O que fazer\n\nSe uma corrente de retorno puxar você, nade paralelamente à praia.\n"
	doc := schema.Document{Path: "safety/rip.md", Title: "Rip currents", Kind: schema.KindSafety, Lang: schema.LangEN, Text: text}
	chunk := func(order int, lang schema.Lang, section, body string) schema.Chunk {
		start := strings.Index(text, body)
		return schema.Chunk{
			DocPath: doc.Path, DocTitle: doc.Title, Lang: lang, Kind: doc.Kind, Element: schema.ElementParagraph,
			SectionPath: []string{section}, Order: order, Text: body, ByteStart: start, ByteEnd: start + len(body),
		}
	}
	return doc, []schema.Chunk{
		chunk(0, schema.LangEN, "What to do", "If a rip current pulls you, swim parallel to the shore. Waves above 1.5 m close the beach."),
		chunk(1, schema.LangPT, "O que fazer", "Se uma corrente de retorno puxar você, nade paralelamente à praia."),
	}
}

func l2norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func maxDiff(a, b []float32) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var d float64
	for i := range a {
		d = max(d, math.Abs(float64(a[i]-b[i])))
	}
	return d
}

// onlyContent reports whether an answer failed only the content checks: it
// was a well-formed answer.
func onlyContent(reasons []string) bool {
	for _, r := range reasons {
		switch r {
		case prompt.ReasonHazard, prompt.ReasonSeason, prompt.ReasonPlace, prompt.ReasonClaim, prompt.ReasonLink,
			prompt.ReasonUngrounded, prompt.ReasonSafetyClaim, prompt.ReasonInjected:
		default:
			return false
		}
	}
	return len(reasons) > 0
}

// TestOllamaRealTwoServers: with two real servers, each document's chunks
// go to the server its hash names, and that server says its prompt cache
// held the document: the second and later chunks' prompt-eval time (what
// Ollama spends on the tokens its cache did not hold) is a fraction of the
// first's. The figures are logged for the notes.
func TestOllamaRealTwoServers(t *testing.T) {
	s := realOllama(t)
	host2 := os.Getenv("INGEST_OLLAMA_HOST2")
	if host2 == "" {
		t.Skip("INGEST_OLLAMA_HOST2 is not set: .ci/ollama.sh test starts a second server")
	}
	ctx := realContext(t)
	cfg := s.config()
	cfg.LLM, cfg.Addrs = "ollama:"+s.chat, map[string]string{"ollama": s.host + "," + host2}
	hw, _, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := hw.(*remote.ModelHeaders)
	// Prompts the tiny model reads a byte a token: a document that fits
	// the window with its chunks.
	para := func(i int) string {
		return fmt.Sprintf("Paragraph %d. Rip currents pull swimmers away from the shore; swim parallel to the beach and wave for help.", i)
	}
	var ratios []float64
	for d := range 8 {
		var body []string
		for i := range 6 {
			body = append(body, para(d*10+i))
		}
		doc := schema.Document{Path: fmt.Sprintf("safety/doc-%d.md", d), Title: fmt.Sprintf("Rips %d", d), Lang: schema.LangEN, Kind: schema.KindSafety,
			Text: fmt.Sprintf("# Rips %d\n\n%s\n", d, strings.Join(body, "\n\n"))}
		server := h.Route(doc.Path)
		var first float64
		for i := range 3 {
			c := schema.Chunk{DocPath: doc.Path, Lang: schema.LangEN, Element: schema.ElementParagraph, SectionPath: []string{"What to do"}, Order: i, Text: body[i]}
			before := usageOf(h)
			if _, err := h.Header(models.OnServer(ctx, server), doc, c); err != nil {
				t.Fatal(err)
			}
			after := usageOf(h)
			secs, tokens := after.PromptSeconds-before.PromptSeconds, after.PromptTokens-before.PromptTokens
			t.Logf("document %d on server %d, chunk %d: %d prompt tokens, prompt eval %.1f ms", d, server, i, tokens, 1000*secs)
			if i == 0 {
				first = secs
			} else if first > 0 {
				ratios = append(ratios, secs/first)
			}
		}
	}
	eps := h.Stats().Endpoints
	if len(eps) != 2 || eps[0].Calls == 0 || eps[1].Calls == 0 {
		t.Errorf("got endpoints %+v, want both servers to have documents", eps)
	}
	slices.Sort(ratios)
	if len(ratios) == 0 || ratios[len(ratios)/2] > 0.5 {
		t.Errorf("got later chunks' prompt eval at %v of their document's first, want the median under 0.5 (the cache holding the document)", ratios)
	}
	// What each server's log says of its prompt cache (OLLAMA_DEBUG):
	// the prompt's tokens it found in the slot ("used") and read anew.
	for _, run := range []string{os.Getenv("INGEST_OLLAMA_RUN"), os.Getenv("INGEST_OLLAMA_RUN2")} {
		b, err := os.ReadFile(filepath.Join(run, "server.log"))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "loading cache slot") && !strings.Contains(l, "prompt=0 ") {
				t.Logf("%s: %s", filepath.Base(run), l[strings.Index(l, "msg="):])
			}
		}
	}
}

func usageOf(h *remote.ModelHeaders) schema.Usage {
	if u := h.Stats().Usage; u != nil {
		return *u
	}
	return schema.Usage{}
}
