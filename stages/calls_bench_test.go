package stages

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/settings"
)

// otelPT is the Portuguese OpenTelemetry docs (../shared/corpora), read
// with the two settings a user writes for them.
const otelPT = "../../shared/corpora/otel/pt"

// callsCase is one run of BenchmarkModelCalls: a corpus against some fake
// servers with some slots each.
type callsCase struct {
	corpus   string
	servers  int
	slots    int
	latency  time.Duration
	free     bool // the fake answers open strings with free words (FreeAnswers)
	bpe      bool // the fake counts tokens with cl100k_base
	settings func(*settings.Config)
}

// callsFigures are what BenchmarkModelCalls reports of one run.
type callsFigures struct {
	calls, sendable int     // chat calls answered; chunks a model writes the header of (not table rows)
	reused, prompt  int     // runes of the prompts the slots' caches held, and in all
	split, docs     int     // documents whose calls went to more than one server; documents sent
	windows         int     // distinct num_ctx values asked
	queued          float64 // most calls waiting for a slot at once, per slot
	wall, ideal     time.Duration
	answerTok       int // answer tokens the servers counted
	widths          string
	sched           schedule
}

// BenchmarkModelCalls runs the whole pipeline, headers and embeddings from
// fake Ollama servers with a fixed latency and a number of slots each
// (modelfake.Options.Slots: calls beyond them wait in the server's queue,
// and each slot keeps the prompt it last read, as Ollama's runner does),
// over the shipped corpus and otel-pt (when ../shared is there), with 1,
// 2 and 4 servers, and reports:
//
//   - calls/chunk: chat calls per chunk whose header a model writes (a
//     schema-following model: 1.00; "free" is a model no grammar holds to
//     a list, FreeAnswers);
//
//   - prefix-share: Σ the prefix each call shares with the previous prompt
//     of the slot that answered it / Σ prompt length: what the servers'
//     prompt caches could skip;
//
//   - docs-split: documents whose calls went to more than one server;
//
//   - num-ctx: distinct context windows asked;
//
//   - queued/slot: the most calls that waited for a slot at once, per slot;
//
//   - switches/doc: runs of one document's calls on a slot, over the
//     documents (1.00: every slot takes its documents one after another);
//
//   - prefix/ideal: the prefix the slots' caches held over what they
//     would hold with each document's calls together on its slot;
//
//   - wall/ideal: the run's wall time over Σ chat latency / (servers ×
//     slots): 1.00 keeps every slot busy from the first call to the last;
//
//   - answer-tokens/call ("tokens=bpe"): the answer tokens a
//     schema-following model writes, counted with cl100k_base.
//
//     go test ./stages -run '^$' -bench ModelCalls -benchtime 1x
func BenchmarkModelCalls(b *testing.B) {
	corpora := []string{"../corpus/ocean"}
	if _, err := os.Stat(otelPT); err == nil {
		corpora = append(corpora, otelPT)
	} else {
		b.Logf("%s is not here: otel-pt left out", otelPT)
	}
	var cases []callsCase
	for _, c := range corpora {
		name := map[bool]string{true: "otel-pt", false: "ocean"}[c == otelPT]
		// Latencies well above what the client and the fakes spend on a
		// call on 2 shared cores (milliseconds, tens under load), as a
		// real model's are: the calls in flight are learned from them.
		// A server with one slot learns from a wait of a whole call.
		const slow, fast = 100 * time.Millisecond, 20 * time.Millisecond
		cases = append(cases, callsCase{corpus: name, servers: 1, slots: 8, latency: slow, free: true})
		cases = append(cases, callsCase{corpus: name, servers: 1, slots: 8, latency: slow, bpe: true})
		for _, servers := range []int{1, 2, 4} {
			cases = append(cases, callsCase{corpus: name, servers: servers, slots: 8, latency: slow})
			cases = append(cases, callsCase{corpus: name, servers: servers, slots: 1, latency: fast})
		}
	}
	for _, tc := range cases {
		name := fmt.Sprintf("corpus=%s/servers=%d/slots=%d", tc.corpus, tc.servers, tc.slots)
		if tc.free {
			name += "/answers=free"
		}
		if tc.bpe {
			name += "/tokens=bpe"
		}
		b.Run(name, func(b *testing.B) {
			var f callsFigures
			for b.Loop() {
				f = runCalls(b, tc)
			}
			b.ReportMetric(float64(f.calls)/float64(max(f.sendable, 1)), "calls/chunk")
			b.ReportMetric(float64(f.reused)/float64(max(f.prompt, 1)), "prefix-share")
			b.ReportMetric(float64(f.split), "docs-split")
			b.ReportMetric(float64(f.windows), "num-ctx")
			b.ReportMetric(f.queued, "queued/slot")
			b.ReportMetric(f.wall.Seconds()/f.ideal.Seconds(), "wall/ideal")
			b.ReportMetric(float64(f.sched.switches)/float64(max(f.sched.docs, 1)), "switches/doc")
			b.ReportMetric(float64(f.sched.reused)/float64(max(f.sched.ideal, 1)), "prefix/ideal")
			if tc.bpe {
				b.ReportMetric(float64(f.answerTok)/float64(max(f.calls, 1)), "answer-tokens/call")
			}
			if f.widths != "" {
				b.Logf("%s: calls in flight settled at %s", name, f.widths)
			}
		})
	}
}

// corpusDir is where a callsCase's corpus is.
func corpusDir(name string) string {
	if name == "otel-pt" {
		return otelPT
	}
	return "../corpus/ocean"
}

// runCalls runs tc once against new fake servers and measures it.
func runCalls(b *testing.B, tc callsCase) callsFigures {
	b.Helper()
	var srvs []*modelfake.Server
	var hosts []string
	for range tc.servers {
		s := modelfake.New(modelfake.Options{Dims: 1024, Latency: tc.latency, Slots: tc.slots, FreeAnswers: tc.free, BPE: tc.bpe})
		defer s.Close()
		srvs, hosts = append(srvs, s), append(hosts, s.URL)
	}
	cfg := testConfig(corpusDir(tc.corpus), filepath.Join(b.TempDir(), "snap"), 0)
	if tc.corpus == "otel-pt" {
		cfg.SourceURLTemplate, cfg.Exclude = "https://opentelemetry.io/{path}/", []string{"**/_includes/**"}
	}
	cliConcurrency(&cfg.Config, tc.servers)
	if tc.settings != nil {
		tc.settings(&cfg.Config)
	}
	h, e, err := backends.Open(context.Background(), backendConfig(cfg.Config,
		models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": strings.Join(hosts, ",")}}))
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	res, err := runOut(context.Background(), cfg, Options{Headers: h, Embedder: e})
	if err != nil {
		b.Fatal(err)
	}
	f := callsFigures{wall: time.Since(start)}
	f.sendable = res.Manifest.Counts.Chunks - res.Manifest.Counts.ByElement[string(schema.ElementTableRow)]
	f.measure(srvs, tc)
	if s, ok := h.(interface{ Stats() schema.ModelStats }); ok {
		f.widths = settledWidths(s.Stats())
	}
	return f
}

// fenceCode reads a prompt's document: the code its markers are named with.
var fenceCode = regexp.MustCompile(`<document-([0-9a-f]+)>`)

// measure reads the servers' logs.
func (f *callsFigures) measure(srvs []*modelfake.Server, tc callsCase) {
	seen := map[string]map[int]bool{} // document → servers
	windows := map[int]bool{}
	for i, s := range srvs {
		for _, l := range s.Log(modelfake.OllamaChat) {
			if !l.Done {
				continue
			}
			f.calls++
			f.reused += l.Reused
			f.answerTok += l.AnswerTokens
			f.prompt += utf8.RuneCountInString(l.Prompt)
			windows[l.NumCtx] = true
			f.queued = max(f.queued, float64(l.Queued)/float64(tc.slots))
			if m := fenceCode.FindStringSubmatch(l.Prompt); m != nil {
				if seen[m[1]] == nil {
					seen[m[1]] = map[int]bool{}
				}
				seen[m[1]][i] = true
			}
		}
	}
	for _, on := range seen {
		f.docs++
		if len(on) > 1 {
			f.split++
		}
	}
	f.windows = len(windows)
	f.sched = scheduleOf(srvs)
	f.ideal = time.Duration(f.calls) * tc.latency / time.Duration(tc.servers*tc.slots)
}

// cliConcurrency gives cfg the calls in flight the command line gives a
// run with servers servers and no setting of its own: header calls learned
// per server, two embedding batches a server.
func cliConcurrency(cfg *settings.Config, servers int) {
	cfg.LLMConcurrency, cfg.EmbedConcurrency = 0, 2*servers
}

// settledWidths lists the calls in flight each server settled at.
func settledWidths(st schema.ModelStats) string {
	var ws []string
	for _, e := range st.Endpoints {
		ws = append(ws, fmt.Sprintf("%d (%s)", e.InFlight, e.InFlightFrom))
	}
	return strings.Join(ws, ", ")
}
