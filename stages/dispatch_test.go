package stages

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/stages/settings"
)

// docServers reads the fakes' logs: for each document (its fence code),
// the servers that answered its chat calls. A call a trial's hedge sent to
// a second server too (the same prompt) is one chunk: the document went to
// two servers only when two of its chunks did.
func docServers(srvs []*modelfake.Server) map[string]map[int]bool {
	chunks := map[string]map[string]map[int]bool{} // document → prompt → servers
	for i, s := range srvs {
		for _, l := range s.Log(modelfake.OllamaChat) {
			m := fenceCode.FindStringSubmatch(l.Prompt)
			if m == nil || !l.Done {
				continue
			}
			if chunks[m[1]] == nil {
				chunks[m[1]] = map[string]map[int]bool{}
			}
			if chunks[m[1]][l.Prompt] == nil {
				chunks[m[1]][l.Prompt] = map[int]bool{}
			}
			chunks[m[1]][l.Prompt][i] = true
		}
	}
	seen := map[string]map[int]bool{}
	for doc, prompts := range chunks {
		// The servers every chunk of the document went to, else all of
		// those any went to.
		var common map[int]bool
		all := map[int]bool{}
		for _, on := range prompts {
			next := map[int]bool{}
			for s := range on {
				all[s] = true
				if common == nil || common[s] {
					next[s] = true
				}
			}
			common = next
		}
		if len(common) > 0 {
			for s := range common {
				seen[doc] = map[int]bool{s: true}
				break
			}
		} else {
			seen[doc] = all
		}
	}
	return seen
}

// runOnServers runs the shipped corpus against n fakes made with opt (each
// edited by edit, when given) and returns the snapshot's chunks hash and
// the fakes.
func runOnServers(t *testing.T, n int, opt modelfake.Options, edit func(i int, s *modelfake.Server), set func(*settings.Config)) (string, []*modelfake.Server) {
	t.Helper()
	var srvs []*modelfake.Server
	var hosts []string
	for i := range n {
		s := modelfake.New(opt)
		t.Cleanup(s.Close)
		if edit != nil {
			edit(i, s)
		}
		srvs, hosts = append(srvs, s), append(hosts, s.URL)
	}
	cfg := testConfig("../corpus/ocean", filepath.Join(t.TempDir(), "snap"), 0)
	cliConcurrency(&cfg.Config, n)
	if set != nil {
		set(&cfg.Config)
	}
	h, e, err := backends.Open(context.Background(), backendConfig(cfg.Config, models.BackendConfig{
		LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": strings.Join(hosts, ",")},
		Retry: models.RetryPolicy{Tries: 4, Initial: time.Millisecond, Max: 5 * time.Millisecond}}))
	if err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, cfg, Options{Headers: h, Embedder: e})
	return res.Manifest.Files[artifacts.ChunksFile].SHA256, srvs
}

// TestOneServerPerDocument: with several healthy servers every document's
// calls go to one of them, every server gets documents, and the snapshot is
// the bytes one server writes, whatever the servers and calls in flight.
func TestOneServerPerDocument(t *testing.T) {
	opt := modelfake.Options{Dims: 1024, Latency: 5 * time.Millisecond, Slots: 4}
	want, _ := runOnServers(t, 1, opt, nil, nil)
	for _, tc := range []struct {
		name    string
		servers int
		set     func(*settings.Config)
	}{
		{"two servers", 2, nil},
		{"four servers", 4, nil},
		{"three servers, one call in flight", 3, func(c *settings.Config) { c.LLMConcurrency = 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, srvs := runOnServers(t, tc.servers, opt, nil, tc.set)
			if got != want {
				t.Errorf("got chunks.parquet %s, want %s (one server's)", got, want)
			}
			used := map[int]bool{}
			for doc, on := range docServers(srvs) {
				if len(on) != 1 {
					t.Errorf("document %s went to servers %v, want one", doc, on)
				}
				for s := range on {
					used[s] = true
				}
			}
			if len(used) != tc.servers {
				t.Errorf("got documents on %d of %d servers, want all", len(used), tc.servers)
			}
		})
	}
}

// TestDocumentsMoveWhenServerDies: a server that dies mid-run leaves its
// documents to the others (their answered chunks kept), the run finishes
// with the same bytes, and no document but the dead server's was split.
func TestDocumentsMoveWhenServerDies(t *testing.T) {
	opt := modelfake.Options{Dims: 1024, Latency: 5 * time.Millisecond, Slots: 4}
	want, _ := runOnServers(t, 1, opt, nil, nil)
	got, srvs := runOnServers(t, 3, opt, func(i int, s *modelfake.Server) {
		if i == 1 {
			s.SetFault(modelfake.Fault{Kind: modelfake.Die, Path: modelfake.OllamaChat, After: 10})
		}
	}, nil)
	if got != want {
		t.Errorf("got chunks.parquet %s, want %s (one server's)", got, want)
	}
	onDead := map[string]bool{} // documents the dead server was sent a call of, answered or not
	for _, l := range srvs[1].Log(modelfake.OllamaChat) {
		if m := fenceCode.FindStringSubmatch(l.Prompt); m != nil {
			onDead[m[1]] = true
		}
	}
	for doc, on := range docServers(srvs) {
		if live := len(on) - btoi(on[1]); live > 1 || live == 1 && on[1] && !onDead[doc] {
			t.Errorf("document %s went to servers %v: split with every server of it healthy", doc, on)
		}
	}
	if n := len(srvs[1].Log(modelfake.OllamaChat)); n > 10 {
		t.Errorf("the dead server logged %d calls, want at most the 10 before it died", n)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCallsInFlightSettle: against servers with 1 and with 4 slots the
// calls in flight settle at the slots, and no more than one call waits a
// slot at any time. A call takes 100 ms, as a small model's does: at
// 30 ms a CPU-starved client (a full go test ./... beside two busy loops)
// held calls the learner counted in flight long enough that the server saw
// fewer, no wait showed, and the width doubled past the slots.
func TestCallsInFlightSettle(t *testing.T) {
	for _, slots := range []int{1, 4} {
		_, srvs := runOnServers(t, 1, modelfake.Options{Dims: 1024, Latency: 100 * time.Millisecond, Slots: slots}, nil, nil)
		queued := 0
		for _, l := range srvs[0].Log(modelfake.OllamaChat) {
			queued = max(queued, l.Queued)
		}
		if queued > slots {
			t.Errorf("%d slots: got %d calls waiting at once, want at most %d", slots, queued, slots)
		}
		if got := srvs[0].MaxInFlight(modelfake.OllamaChat); got > 2*slots {
			t.Errorf("%d slots: got %d calls in flight at most, want at most %d", slots, got, 2*slots)
		}
	}
}
