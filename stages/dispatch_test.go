package stages

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/stages/settings"
)

// The tests of this file time fake servers' latency against the pool's and
// the learner's measures, whose judgments hold only while the test process
// has the CPU: they run alone (no t.Parallel), their cases beside each
// other (all of them waiting on the fakes), never beside the package's
// tests that load the CPU.

// docServers reads the fakes' logs: for each document (its fence code),
// the fewest servers that answered every one of its chunks' chat calls. A
// call a trial's hedge sent to a second server too (the same prompt) is one
// chunk answered by two: the document went to two servers only when two of
// its chunks did, whichever of a hedged chunk's servers is counted. Among
// as few, the servers counted are those with the fewest but dead (-1:
// none): a hedged chunk of a document on a server that then died went
// there, not to the hedge's server.
func docServers(srvs []*modelfake.Server, dead int) map[string]map[int]bool {
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
	// Every set of servers, fewest first, then fewest but dead.
	sets := make([]int, 1<<len(srvs))
	for set := range sets {
		sets[set] = set
	}
	size := func(set int) (n, live int) {
		for i := range srvs {
			if set&(1<<i) != 0 {
				n++
				live += btoi(i != dead)
			}
		}
		return n, live
	}
	slices.SortStableFunc(sets, func(a, b int) int {
		na, la := size(a)
		nb, lb := size(b)
		return cmp.Or(cmp.Compare(na, nb), cmp.Compare(la, lb))
	})
	seen := map[string]map[int]bool{}
	for doc, prompts := range chunks {
		for _, set := range sets {
			covers := true
			for _, on := range prompts {
				hit := false
				for s := range on {
					hit = hit || set&(1<<s) != 0
				}
				covers = covers && hit
			}
			if covers {
				seen[doc] = map[int]bool{}
				for i := range srvs {
					if set&(1<<i) != 0 {
						seen[doc][i] = true
					}
				}
				break
			}
		}
	}
	return seen
}

// oneServer holds the chunks.parquet hashes of the shipped corpus (or the
// part of it a test's set chooses) run against one fake server, which a
// run on any number of servers must write: made once for the package's
// tests (a server's latency and slots play no part in the bytes).
var oneServer struct {
	mu     sync.Mutex
	hashes map[string]string // by the corpus's include globs
}

func oneServerChunks(t *testing.T, set func(*settings.Config)) string {
	t.Helper()
	var c settings.Config
	if set != nil {
		set(&c)
	}
	key := strings.Join(c.Include, "\x00")
	oneServer.mu.Lock()
	defer oneServer.mu.Unlock()
	if oneServer.hashes[key] == "" {
		h, _ := runOnServers(t, 1, modelfake.Options{Dims: 1024}, nil, set)
		if oneServer.hashes == nil {
			oneServer.hashes = map[string]string{}
		}
		oneServer.hashes[key] = h
	}
	return oneServer.hashes[key]
}

// topLevel chooses the shipped corpus's ten top-level documents (47 header
// calls of its 196): the tests that wait on slow fakes one call at a time
// see every behaviour they hold on them, in a quarter of the time.
func topLevel(c *settings.Config) { c.Include = []string{"*.md"} }

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
// A call takes 100 ms, as in TestDocumentsMoveWhenServerDies: at 5 ms a
// CPU-starved client hedged a healthy server's trial (once in go test
// -count=30 beside a busy loop), which takes the server out and moves its
// documents.
func TestOneServerPerDocument(t *testing.T) {
	opt := modelfake.Options{Dims: 1024, Latency: 100 * time.Millisecond, Slots: 4}
	want := oneServerChunks(t, topLevel)
	for _, tc := range []struct {
		name    string
		servers int
		set     func(*settings.Config)
	}{
		{"two servers", 2, topLevel},
		{"four servers", 4, topLevel},
		{"three servers, one call in flight", 3, func(c *settings.Config) { topLevel(c); c.LLMConcurrency = 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, srvs := runOnServers(t, tc.servers, opt, nil, tc.set)
			if got != want {
				t.Errorf("got chunks.parquet %s, want %s (one server's)", got, want)
			}
			used := map[int]bool{}
			for doc, on := range docServers(srvs, -1) {
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

// TestDocumentsMoveWhenServerDies: a server that dies mid-run (after its
// fourth call, on the shipped corpus's top-level documents) leaves its
// documents to the others (their answered chunks kept), the run finishes
// with the same bytes, and no document but the dead server's was split.
// A call takes 100 ms, as a small model's does: the pool judges servers by
// the latency the client measures (a trial hedged, a server slow at three
// times the best), and at 5 ms a CPU-starved client (go test -count=20
// beside a busy loop) measured healthy servers at 50 to 400 ms, so a
// hedged trial took one out of the run, or the route of a dead server's
// document changed between its calls, and documents moved between live
// servers.
func TestDocumentsMoveWhenServerDies(t *testing.T) {
	want := oneServerChunks(t, topLevel)
	opt := modelfake.Options{Dims: 1024, Latency: 100 * time.Millisecond, Slots: 4}
	got, srvs := runOnServers(t, 3, opt, func(i int, s *modelfake.Server) {
		if i == 1 {
			s.SetFault(modelfake.Fault{Kind: modelfake.Die, Path: modelfake.OllamaChat, After: 4})
		}
	}, topLevel)
	if got != want {
		t.Errorf("got chunks.parquet %s, want %s (one server's)", got, want)
	}
	onDead := map[string]bool{} // documents the dead server was sent a call of, answered or not
	for _, l := range srvs[1].Log(modelfake.OllamaChat) {
		if m := fenceCode.FindStringSubmatch(l.Prompt); m != nil {
			onDead[m[1]] = true
		}
	}
	for doc, on := range docServers(srvs, 1) {
		if live := len(on) - btoi(on[1]); live > 1 || live == 1 && on[1] && !onDead[doc] {
			t.Errorf("document %s went to servers %v: split with every server of it healthy", doc, on)
		}
	}
	if n := len(srvs[1].Log(modelfake.OllamaChat)); n != 4 {
		t.Errorf("the dead server logged %d calls, want the 4 before it died (fewer: it never died, and nothing moved)", n)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCallsInFlightSettle: against servers with 1 and with 4 slots (the
// shipped corpus's top-level documents, 47 calls) the
// calls in flight settle at the slots, and no more than one call waits a
// slot at any time. A call takes 100 ms, as a small model's does: at
// 30 ms a CPU-starved client (a full go test ./... beside two busy loops)
// held calls the learner counted in flight long enough that the server saw
// fewer, no wait showed, and the width doubled past the slots.
func TestCallsInFlightSettle(t *testing.T) {
	for _, slots := range []int{1, 4} {
		t.Run(fmt.Sprintf("%d slots", slots), func(t *testing.T) {
			t.Parallel()
			_, srvs := runOnServers(t, 1, modelfake.Options{Dims: 1024, Latency: 100 * time.Millisecond, Slots: slots}, nil, topLevel)
			queued := 0
			for _, l := range srvs[0].Log(modelfake.OllamaChat) {
				queued = max(queued, l.Queued)
			}
			if queued > slots {
				t.Errorf("got %d calls waiting at once, want at most %d", queued, slots)
			}
			if got := srvs[0].MaxInFlight(modelfake.OllamaChat); got > 2*slots {
				t.Errorf("got %d calls in flight at most, want at most %d", got, 2*slots)
			}
		})
	}
}
