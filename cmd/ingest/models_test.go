package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages/estimate"
)

// TestIndexWithModelServer runs the main job against the fake Ollama server:
// headers and embeddings come from the models, the manifest names their
// digests, no table row goes to the chat model, batches hold at most 10
// texts, an ungrounded model threshold is reported and not accepted, and an
// unchanged re-run makes no model call and writes the same bytes.
func TestIndexWithModelServer(t *testing.T) {
	t.Parallel()
	srv := modelfake.New(modelfake.Options{Dims: 1024, UngroundedThreshold: true})
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "snap")
	args := []string{"index", "--corpus", fixtureCorpus, "--out", out, "--quiet",
		"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", srv.URL}
	if code, _, stderr := runCLI(context.Background(), "", args...); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	m, err := artifacts.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Embedder.Name, "@sha256:") || !strings.Contains(m.HeaderWriter, "@sha256:") || !strings.Contains(m.HeaderWriter, "prompt-v") {
		t.Errorf("got embedder %q, header writer %q, want model digests and the prompt version", m.Embedder.Name, m.HeaderWriter)
	}
	chats, embeds := srv.Calls(modelfake.OllamaChat), srv.Calls(modelfake.OllamaEmbed)
	tableRows := m.Counts.ByElement["table_row"]
	if want := m.Counts.Chunks - tableRows; chats != want || tableRows == 0 {
		t.Errorf("got %d chat calls, want %d (every chunk but the %d table rows)", chats, want, tableRows)
	}
	texts := 0
	for _, body := range srv.Requests(modelfake.OllamaEmbed) {
		var req struct {
			Input    []string `json:"input"`
			Truncate *bool    `json:"truncate"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatal(err)
		}
		if len(req.Input) > 10 || req.Truncate == nil || *req.Truncate {
			t.Errorf("got an embed request of %d inputs, truncate %v; want ≤ 10 and truncate false", len(req.Input), req.Truncate)
		}
		texts += len(req.Input)
	}
	if texts != m.Counts.Chunks || embeds == 0 {
		t.Errorf("got %d texts embedded in %d calls, want %d", texts, embeds, m.Counts.Chunks)
	}
	var rep artifacts.Report
	if err := json.Unmarshal(readTestFile(t, filepath.Join(out, artifacts.ReportFile)), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Models == nil || len(rep.Models.Ungrounded) == 0 {
		t.Fatalf("got model report %+v, want the ungrounded thresholds listed", rep.Models)
	}
	chunks, err := artifacts.ReadChunks(filepath.Join(out, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		for _, th := range c.Thresholds {
			if th.Origin == "model" && !strings.Contains(c.Text, th.Surface) {
				t.Errorf("accepted model threshold %+v not stated in %q", th, c.Text)
			}
		}
		if c.Element != "table_row" && c.HeaderSource != "model" {
			t.Errorf("chunk %s: got header source %s, want model", c.Key(), c.HeaderSource)
		}
	}

	before := readTestFile(t, filepath.Join(out, artifacts.ChunksFile))
	if code, _, stderr := runCLI(context.Background(), "", args...); code != exitOK {
		t.Fatalf("re-run: exit %d: %s", code, stderr)
	}
	if c, e := srv.Calls(modelfake.OllamaChat)-chats, srv.Calls(modelfake.OllamaEmbed)-embeds; c != 0 || e != 0 {
		t.Errorf("unchanged re-run: got %d chat and %d embed calls, want 0", c, e)
	}
	if !bytes.Equal(before, readTestFile(t, filepath.Join(out, artifacts.ChunksFile))) {
		t.Errorf("unchanged re-run: chunks.parquet changed")
	}
}

// TestIndexModelServerChecks: start-up problems are usage errors naming what
// to change, and nothing is written.
func TestIndexModelServerChecks(t *testing.T) {
	t.Parallel()
	srv := modelfake.New(modelfake.Options{Dims: 1536})
	defer srv.Close()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"model missing", []string{"--embedder", "ollama:nomic-embed-text", "--ollama-host", srv.URL}, "ollama pull nomic-embed-text"},
		{"too wide", []string{"--embedder", "ollama:bge-m3", "--ollama-host", srv.URL}, "max_dims"},
		{"unreachable", []string{"--embedder", "ollama:bge-m3", "--ollama-host", "http://127.0.0.1:1"}, "ollama_host (OLLAMA_HOST)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "snap")
			args := append([]string{"index", "--corpus", fixtureCorpus, "--out", out}, tt.args...)
			code, _, stderr := runCLI(context.Background(), "", args...)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("got exit %d, stderr %q; want %d naming %q", code, stderr, exitUsage, tt.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("got %s written", out)
			}
		})
	}
}

func readTestFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// embeddedTexts counts the texts of the embed requests a fake answered.
func embeddedTexts(t *testing.T, srv *modelfake.Server) int {
	t.Helper()
	n := 0
	for _, body := range srv.Requests(modelfake.OllamaEmbed) {
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatal(err)
		}
		n += len(req.Input)
	}
	return n
}

// TestIndexResumeAfterServerDies: the model server dies after N embedding
// calls; the run fails and publishes nothing; run again against a server
// that is back, it embeds only what the first run had not finished, so the
// two runs together embed what one clean run does. The same for --out and
// for --publish, whose journal lives at a stable path in the publish folder.
func TestIndexResumeAfterServerDies(t *testing.T) {
	t.Parallel()
	clean := modelfake.New(modelfake.Options{Dims: 1024})
	defer clean.Close()
	var stderr string
	run := func(srv *modelfake.Server, target ...string) int {
		var code int
		args := append([]string{"index", "--corpus", "../../corpus/ocean", "--quiet",
			"--embedder", "ollama:bge-m3", "--ollama-host", srv.URL, "--embed-concurrency", "1"}, target...)
		code, _, stderr = runCLI(context.Background(), "", args...)
		return code
	}
	if code := run(clean, "--out", filepath.Join(t.TempDir(), "clean")); code != exitOK {
		t.Fatalf("clean run: exit %d", code)
	}
	want := embeddedTexts(t, clean)

	for _, flag := range []string{"--out", "--publish"} {
		t.Run(flag, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "snap")
			dying := modelfake.New(modelfake.Options{Dims: 1024})
			defer dying.Close()
			dying.SetFault(modelfake.Fault{Kind: modelfake.Die, Path: modelfake.OllamaEmbed, After: 9})
			if code := run(dying, flag, out); code != exitFailed {
				t.Fatalf("run against a dying server: exit %d, want %d", code, exitFailed)
			}
			if _, err := os.Stat(filepath.Join(out, artifacts.ManifestFile)); err == nil {
				t.Fatalf("a failed run published %s", out)
			}
			if _, err := publish.Latest(out); flag == "--publish" && err == nil {
				t.Fatalf("a failed run moved latest in %s", out)
			}
			if !strings.Contains(stderr, "90 vectors from the model server journaled") || !strings.Contains(stderr, "run again to resume") {
				t.Errorf("got stderr %q, want what was finished and how to resume", stderr)
			}
			back := modelfake.New(modelfake.Options{Dims: 1024})
			defer back.Close()
			if code := run(back, flag, out); code != exitOK {
				t.Fatalf("resumed run: exit %d: %s", code, stderr)
			}
			first, second := embeddedTexts(t, dying), embeddedTexts(t, back)
			// The request that met the dead server was not answered: it is not in
			// the first count, and the resume pays for it once.
			dead := 0
			if reqs := dying.Requests(modelfake.OllamaEmbed); len(reqs) > 9 {
				var req struct {
					Input []string `json:"input"`
				}
				json.Unmarshal(reqs[9], &req)
				dead = len(req.Input)
			}
			if first-dead+second != want {
				t.Errorf("got %d texts answered before the crash and %d after, want %d in all (one clean run)", first-dead, second, want)
			}
		})
	}
}

// TestIndexConcurrencyFromConfig: llm_concurrency in the config file sets
// how many header calls are in flight, and the flag overrides it only when
// it is given.
func TestIndexConcurrencyFromConfig(t *testing.T) {
	cfgFile := filepath.Join(t.TempDir(), "ingest.yaml")
	if err := os.WriteFile(cfgFile, []byte("llm_concurrency: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		flags []string
		want  int
	}{
		{"from the config file", nil, 3},
		{"flag over the file", []string{"--llm-concurrency", "1"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := modelfake.New(modelfake.Options{Dims: 1024, Latency: 20 * time.Millisecond})
			defer srv.Close()
			args := append([]string{"index", "--corpus", fixtureCorpus, "--out", filepath.Join(t.TempDir(), "snap"), "--quiet",
				"--config", cfgFile, "--llm", "ollama:qwen2.5:7b", "--ollama-host", srv.URL, "--workers", "4"}, tt.flags...)
			if code, _, stderr := runCLI(context.Background(), "", args...); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := srv.MaxInFlight(modelfake.OllamaChat); got != tt.want {
				t.Errorf("got %d header calls in flight at most, want %d", got, tt.want)
			}
		})
	}
}

// TestIndexSeveralEndpoints: --ollama-host with two servers spreads the
// run's calls over both, header calls in flight learned per server (the
// run logs 0: none fixed) and twice the default embedding batches, and the
// report counts each server's share and says what each settled at.
func TestIndexSeveralEndpoints(t *testing.T) {
	a := modelfake.New(modelfake.Options{Dims: 1024, Latency: 20 * time.Millisecond})
	defer a.Close()
	b := modelfake.New(modelfake.Options{Dims: 1024, Latency: 20 * time.Millisecond})
	defer b.Close()
	out := filepath.Join(t.TempDir(), "snap")
	code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", "../../corpus/ocean", "--out", out, "--quiet", "--workers", "4",
		"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", a.URL+","+b.URL, "--log-level", "info", "--log-format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	started := false
	for _, line := range strings.Split(stderr, "\n") {
		var l struct {
			Msg              string `json:"msg"`
			LLMConcurrency   int    `json:"llm_concurrency"`
			EmbedConcurrency int    `json:"embed_concurrency"`
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "run started" {
			started = true
			if l.LLMConcurrency != 0 || l.EmbedConcurrency != 4 {
				t.Errorf("got %d header and %d embedding calls in flight, want 0 (learned) and 4 (2 per server)", l.LLMConcurrency, l.EmbedConcurrency)
			}
		}
	}
	if !started {
		t.Errorf("no run started line in the log: %s", stderr)
	}
	var rep artifacts.Report
	if err := json.Unmarshal(readBytes(t, filepath.Join(out, artifacts.ReportFile)), &rep); err != nil {
		t.Fatal(err)
	}
	eps := rep.Models.Headers.Endpoints
	if len(eps) != 2 || eps[0].Calls == 0 || eps[1].Calls == 0 || eps[0].InFlight == 0 || eps[1].InFlightFrom != "learned" {
		t.Errorf("got endpoints %+v in the report, want both with calls and the calls in flight they learned", eps)
	}
	for i, srv := range []*modelfake.Server{a, b} {
		if srv.Calls(modelfake.OllamaChat) == 0 || srv.Calls(modelfake.OllamaEmbed) == 0 {
			t.Errorf("server %d got %d chat and %d embed calls, want some of each", i, srv.Calls(modelfake.OllamaChat), srv.Calls(modelfake.OllamaEmbed))
		}
	}
}

// TestWorkersAreCores: --workers 1 runs on one core (the run's log says how
// many it had), and the process's setting is as it was afterwards.
func TestWorkersAreCores(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: nothing to limit")
	}
	before := runtime.GOMAXPROCS(0)
	_, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", filepath.Join(t.TempDir(), "snap"),
		"--quiet", "--workers", "1", "--log-level", "info", "--log-format", "json")
	cores := -1
	for _, line := range strings.Split(stderr, "\n") {
		var l struct {
			Msg   string `json:"msg"`
			Cores int    `json:"cores"`
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "run started" {
			cores = l.Cores
		}
	}
	if cores != 1 {
		t.Errorf("--workers 1: the run had %d cores, want 1 (stderr %s)", cores, stderr)
	}
	if after := runtime.GOMAXPROCS(0); after != before {
		t.Errorf("GOMAXPROCS is %d after the run, was %d", after, before)
	}
}

// TestPoolOddServer: a server with other weights listed first is left out,
// whatever the order: the previous snapshot's digest decides (no call is
// paid again, the embedder is the same), else the majority; with neither,
// the run is refused in one line naming both servers. (--ollama-host
// other,good kept the odd server, re-paid every call and switched the
// embedder, exit 0.)
func TestPoolOddServer(t *testing.T) {
	t.Parallel()
	good := modelfake.New(modelfake.Options{Dims: 1024})
	defer good.Close()
	good2 := modelfake.New(modelfake.Options{Dims: 1024})
	defer good2.Close()
	other := modelfake.New(modelfake.Options{Dims: 1024, Weights: "other"})
	defer other.Close()
	out := filepath.Join(t.TempDir(), "snap")
	index := func(hosts ...string) (int, string, runSummary) {
		code, stdout, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", out, "--json",
			"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", strings.Join(hosts, ","))
		var s runSummary
		json.Unmarshal([]byte(stdout), &s)
		return code, stderr, s
	}
	code, stderr, _ := index(other.URL, good.URL)
	if code != exitUsage || !strings.Contains(stderr, "differs between the servers") || !strings.Contains(stderr, other.URL) || !strings.Contains(stderr, good.URL) {
		t.Fatalf("no previous snapshot, no majority: got exit %d, %q; want exit 2 naming both servers", code, stderr)
	}
	if code, stderr, first := index(good.URL); code != exitOK || first.Calls.HeaderCalls == 0 {
		t.Fatalf("good alone: got exit %d, calls %+v: %s", code, first.Calls, stderr)
	}
	m1, _ := artifacts.ReadManifest(out)
	code, stderr, again := index(other.URL, good.URL)
	m2, _ := artifacts.ReadManifest(out)
	if code != exitOK || again.Calls.HeaderCalls != 0 || again.Calls.EmbedCalls != 0 || m2.Embedder.Name != m1.Embedder.Name {
		t.Errorf("odd server listed first, previous snapshot: got exit %d, calls %+v, embedder %s (was %s); want no call and the same embedder: %s",
			code, again.Calls, m2.Embedder.Name, m1.Embedder.Name, stderr)
	}
	if other.Calls(modelfake.OllamaChat)+other.Calls(modelfake.OllamaEmbed) != 0 {
		t.Errorf("got calls on the odd server")
	}
	os.RemoveAll(out)
	if code, stderr, _ := index(other.URL, good.URL, good2.URL); code != exitOK || other.Calls(modelfake.OllamaChat) != 0 {
		t.Errorf("majority: got exit %d, %d chat calls on the odd server: %s", code, other.Calls(modelfake.OllamaChat), stderr)
	}
}

// TestConcurrencyWasSet: with three servers, the calls in flight a run
// leaves to its defaults are learned per server for headers (0: none
// fixed) and 2 a server, 6, for embeddings; a number the config file sets
// is kept as set, whatever it is, the default's value too (llm_concurrency:
// 2 made 6 when "set" was guessed by comparing with the default), and so
// is a flag's. ingest config prints what index runs with.
func TestConcurrencyWasSet(t *testing.T) {
	t.Parallel()
	var hosts []string
	for range 3 {
		srv := modelfake.New(modelfake.Options{Dims: 1024, Latency: time.Millisecond})
		defer srv.Close()
		hosts = append(hosts, srv.URL)
	}
	dir := t.TempDir()
	spelt := filepath.Join(dir, "spelt.yaml")
	if err := os.WriteFile(spelt, []byte("llm_concurrency: 2\nembed_concurrency: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.yaml")
	if err := os.WriteFile(empty, []byte("# the defaults\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		flags      []string
		llm, embed int
	}{
		{"left to the defaults", []string{"--config", empty}, 0, 6}, // header calls in flight learned per server
		{"the defaults spelt out in the file", []string{"--config", spelt}, 2, 2},
		{"a flag", []string{"--llm-concurrency", "2"}, 2, 6},
		{"a flag over the file", []string{"--config", spelt, "--embed-concurrency", "5"}, 2, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			backends := []string{"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", strings.Join(hosts, ",")}
			args := append([]string{"index", "--corpus", fixtureCorpus, "--out", filepath.Join(t.TempDir(), "snap"), "--quiet",
				"--log-level", "info", "--log-format", "json"}, append(backends, tt.flags...)...)
			code, _, stderr := runCLI(context.Background(), "", args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			llm, embed := -1, -1
			for _, line := range strings.Split(stderr, "\n") {
				var l struct {
					Msg              string `json:"msg"`
					LLMConcurrency   int    `json:"llm_concurrency"`
					EmbedConcurrency int    `json:"embed_concurrency"`
				}
				if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "run started" {
					llm, embed = l.LLMConcurrency, l.EmbedConcurrency
				}
			}
			if llm != tt.llm || embed != tt.embed {
				t.Errorf("got %d header and %d embedding calls in flight, want %d and %d", llm, embed, tt.llm, tt.embed)
			}
			code, stdout, stderr := runCLI(context.Background(), "", append([]string{"config", "--json"}, append(backends, tt.flags...)...)...)
			if code != exitOK {
				t.Fatalf("config: exit %d: %s", code, stderr)
			}
			var settings []struct {
				Key   string `json:"key"`
				Value any    `json:"value"`
			}
			if err := json.Unmarshal([]byte(stdout), &settings); err != nil {
				t.Fatal(err)
			}
			for _, s := range settings {
				want := map[string]int{"llm_concurrency": tt.llm, "embed_concurrency": tt.embed}[s.Key]
				if v, ok := s.Value.(float64); want != 0 && (!ok || int(v) != want) {
					t.Errorf("ingest config: got %s %v, want %d, what index runs with", s.Key, s.Value, want)
				}
			}
		})
	}
}

// TestPlanCost: --plan prints, and --json gives, the header and embedding
// calls' tokens (counted chars/4) and, with --plan-rate or --probe (one call
// to each server, timed by what the server says), the time they would take.
func TestPlanCost(t *testing.T) {
	t.Parallel()
	a := modelfake.New(modelfake.Options{Dims: 1024, Latency: 10 * time.Millisecond})
	defer a.Close()
	b := modelfake.New(modelfake.Options{Dims: 1024, Latency: 10 * time.Millisecond})
	defer b.Close()
	common := []string{"index", "--corpus", "../../corpus/ocean", "--out", filepath.Join(t.TempDir(), "snap"), "--plan",
		"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", a.URL + "," + b.URL}
	code, stdout, stderr := runCLI(context.Background(), "", append(common, "--plan-rate", "1000,50")...)
	if code != exitOK || !strings.Contains(stdout, "header tokens (chars/4): ") || !strings.Contains(stdout, "at 1000 prompt and 50 answer tokens a second (given), one call at a time on each of 2 servers") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant the header tokens and a time at the given rate over 2 servers", code, stdout, stderr)
	}
	chats := a.Calls(modelfake.OllamaChat) + b.Calls(modelfake.OllamaChat)
	code, stdout, _ = runCLI(context.Background(), "", append(common, "--probe", "--json")...)
	var p estimate.Result
	if err := json.Unmarshal([]byte(stdout), &p); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v: %s", code, err, stdout)
	}
	h, e := p.HeaderCost, p.EmbedCost
	if p.Tokenizer != "chars/4" || h == nil || h.Calls != p.HeaderCalls || h.PromptTokens == 0 || h.CachedTokens == 0 || h.Seconds <= 0 || h.Rate == nil || h.Rate.From != "probe" || h.Rate.Prefill <= 0 || h.Rate.Servers != 2 {
		t.Errorf("got tokenizer %q, header cost %+v (rate %+v), want chars/4 and a cost timed by the probe over 2 servers", p.Tokenizer, h, h.Rate)
	}
	if e == nil || e.Calls != p.EmbeddingCalls || e.PromptTokens == 0 || e.Seconds <= 0 {
		t.Errorf("got embedding cost %+v, want its calls, tokens and a time", e)
	}
	if got := a.Calls(modelfake.OllamaChat) + b.Calls(modelfake.OllamaChat) - chats; got != 2 {
		t.Errorf("got %d chat calls for --probe, want 2 (one a server)", got)
	}
}
