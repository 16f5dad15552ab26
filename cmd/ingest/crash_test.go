package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/internal/slowtest"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages/reuse"
)

// childEnv makes the test binary run as the ingest command: the crash test
// kills it with SIGKILL, which a test cannot do to its own process.
const childEnv = "INGEST_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	// A model call's back-offs in milliseconds, for the runs in this
	// process and in its children: a failing server is retried as often as
	// the defaults say, without their seconds of waiting.
	modelRetry = models.RetryPolicy{Initial: time.Millisecond, Max: 5 * time.Millisecond}
	// Stamps go to a folder of the tests' (their children inherit it),
	// never the user's cache.
	cache := ""
	if os.Getenv("INGEST_CACHE_DIR") == "" {
		dir, err := os.MkdirTemp("", "ingest-test-cache-")
		if err != nil {
			panic(err)
		}
		cache = dir
		os.Setenv("INGEST_CACHE_DIR", dir)
	}
	if os.Getenv(childEnv) == "1" {
		os.Exit(runProcess(append([]string{"ingest"}, os.Args[1:]...)))
	}
	code := m.Run()
	if cache != "" {
		os.RemoveAll(cache)
	}
	os.Exit(code)
}

// killPoint is where a crash-test run is killed: when its n-th call to
// path arrives at the model server, after a delay from its start, or once
// the model server has heard nothing from it for a while (its calls are
// done: it is writing, verifying or publishing).
type killPoint struct {
	name  string
	path  string // modelfake.OllamaChat or OllamaEmbed; "" for a delay
	n     int
	after time.Duration
	quiet time.Duration
	out   bool // into --out instead of --publish
	edit  bool // edit the corpus first, so the run has new work
}

// TestCrashSafety kills the CLI (SIGKILL) at points spread over real runs
// against the fake model server — before any model call, while enriching,
// while embedding, and while writing and publishing — and after each kill
// checks that every snapshot already there is byte for byte as it was,
// that any new one is complete and verifies, and that latest points at a
// verified snapshot. A last run completes, repeats no call the server had
// answered before a kill, and leaves no temporary folder.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: about 20 s")
	}
	slowtest.Mark(t, "the command killed at eighteen points of real runs: about 10 s")
	root := t.TempDir()
	corpusDir := filepath.Join(root, "corpus")
	copyTree(t, "../../corpus/ocean", corpusDir)
	pub, out := filepath.Join(root, "pub"), filepath.Join(root, "out")

	var mu sync.Mutex
	var child *exec.Cmd
	var plan killPoint
	base := map[string]int{} // calls per path before the current run
	var runs []crashRun
	kill := func() {
		if child != nil && child.Process != nil {
			// What the run journaled, read before it dies: a handshake,
			// where a grace period after the server's answer is a guess a
			// loaded machine outruns.
			r := &runs[len(runs)-1]
			r.journal = journalKeys(t, r.journalPath)
			child.Process.Kill()
			r.killed = time.Now()
		}
	}
	var lastCall time.Time
	journalOf := map[bool]string{false: publish.PublishTarget(pub, 0, "").Journal(), true: publish.OutTarget(out, "").Journal()}
	srv := modelfake.New(modelfake.Options{Dims: 1024, Latency: 20 * time.Millisecond, OnCall: func(path string, n int) {
		mu.Lock()
		defer mu.Unlock()
		lastCall = time.Now()
		if plan.path == path && n-base[path] == plan.n {
			kill()
		}
	}})
	defer srv.Close()

	runChild := func(k killPoint) (code int, stderr string) {
		target := []string{"--publish", pub, "--keep", "100"}
		if k.out {
			target = []string{"--out", out}
		}
		args := append([]string{"index", "--corpus", corpusDir, "--quiet", "--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3",
			"--ollama-host", srv.URL, "--llm-concurrency", "2", "--embed-concurrency", "2"}, target...)
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), childEnv+"=1")
		var errb strings.Builder
		cmd.Stderr = &errb
		mu.Lock()
		plan, child = k, cmd
		r := crashRun{target: target[1], journalPath: journalOf[k.out], from: map[string]int{}, to: map[string]int{}, started: time.Now()}
		for _, p := range []string{modelfake.OllamaChat, modelfake.OllamaEmbed} {
			base[p] = srv.Calls(p)
			r.from[p] = base[p]
		}
		runs = append(runs, r)
		if err := cmd.Start(); err != nil {
			mu.Unlock()
			t.Fatal(err)
		}
		mu.Unlock()
		var timer *time.Timer
		if k.path == "" && k.after > 0 {
			timer = time.AfterFunc(k.after, func() { mu.Lock(); kill(); mu.Unlock() })
		}
		done := make(chan struct{})
		if k.quiet > 0 {
			mu.Lock()
			lastCall = time.Now()
			mu.Unlock()
			go func() {
				tick := time.NewTicker(2 * time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case <-done:
						return
					case <-tick.C:
						mu.Lock()
						if time.Since(lastCall) >= k.quiet {
							kill()
							mu.Unlock()
							return
						}
						mu.Unlock()
					}
				}
			}()
		}
		err := cmd.Wait()
		close(done)
		if timer != nil {
			timer.Stop()
		}
		mu.Lock()
		child = nil
		for _, p := range []string{modelfake.OllamaChat, modelfake.OllamaEmbed} {
			runs[len(runs)-1].to[p] = srv.Calls(p)
		}
		mu.Unlock()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), errb.String()
		}
		return 0, errb.String()
	}

	points := []killPoint{
		{name: "starting, reading the corpus", after: 40 * time.Millisecond},
		{name: "first header call", path: modelfake.OllamaChat, n: 1},
		{name: "enriching", path: modelfake.OllamaChat, n: 25},
		{name: "first embedding batch", path: modelfake.OllamaEmbed, n: 1},
		{name: "enriching, later", path: modelfake.OllamaChat, n: 40},
		{name: "embedding", path: modelfake.OllamaEmbed, n: 4},
		{name: "out: enriching", path: modelfake.OllamaChat, n: 10, out: true},
		{name: "out: embedding", path: modelfake.OllamaEmbed, n: 2, out: true},
		{name: "finishing", path: modelfake.OllamaEmbed, n: 3},
		{name: "calls done, 40 ms on", quiet: 40 * time.Millisecond},
		{name: "calls done, 80 ms on", quiet: 80 * time.Millisecond},
		{name: "calls done, 120 ms on", quiet: 120 * time.Millisecond},
		{name: "calls done, 160 ms on", quiet: 160 * time.Millisecond},
		{name: "out: calls done, 60 ms on", quiet: 60 * time.Millisecond, out: true},
		{name: "out: calls done, 120 ms on", quiet: 120 * time.Millisecond, out: true},
		{name: "after an edit: enriching", path: modelfake.OllamaChat, n: 1, edit: true},
		{name: "after an edit: calls done, 50 ms on", quiet: 50 * time.Millisecond},
		{name: "after an edit: calls done, 100 ms on", quiet: 100 * time.Millisecond},
	}
	edits := 0
	for _, k := range points {
		if k.edit {
			edits++
			editCorpus(t, corpusDir, edits)
		}
		before := snapshotTrees(t, pub, out)
		start := time.Now()
		code, stderr := runChild(k)
		checkAfterCrash(t, k.name, before, pub, out)
		t.Logf("%-40s exit %3d after %4d ms %s", k.name, code, time.Since(start).Milliseconds(), firstLine(stderr))
	}
	for _, k := range []killPoint{{name: "final --publish"}, {name: "final --out", out: true}} {
		start := time.Now()
		if code, stderr := runChild(k); code != exitOK {
			t.Fatalf("%s: exit %d: %s", k.name, code, stderr)
		}
		t.Logf("%-40s exit   0 after %4d ms", k.name, time.Since(start).Milliseconds())
		checkAfterCrash(t, k.name, nil, pub, out)
	}
	for _, dir := range []string{pub, root} {
		for _, e := range readDir(t, dir) {
			if strings.HasPrefix(e, ".") && e != ".ingest" && e != ".out.ingest" {
				t.Errorf("got %s left in %s after the final runs, want no temporary folder", e, dir)
			}
		}
	}
	checkNoRepeats(t, srv, runs, itemKeys(t, pub, out))
}

// crashRun is one run of the crash test: its target, the calls it made
// (indexes into the server's requests, per path), when it was killed and
// the keys its target's journal held then.
type crashRun struct {
	target, journalPath string
	from, to            map[string]int
	started             time.Time
	killed              time.Time // zero: it ran to its end
	journal             map[string]bool
}

// journalKeys are the keys of the complete lines of the journal at path.
func journalKeys(t *testing.T, path string) map[string]bool {
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Error(err)
	}
	keys := map[string]bool{}
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		for _, line := range bytes.Split(b[:i], []byte("\n")) {
			var l struct {
				Key string `json:"k"`
			}
			if json.Unmarshal(line, &l) == nil && l.Key != "" {
				keys[l.Key] = true
			}
		}
	}
	return keys
}

// snapshotTrees hashes every published snapshot folder.
func snapshotTrees(t *testing.T, pub, out string) map[string]map[string]string {
	trees := map[string]map[string]string{}
	for _, e := range readDir(t, pub) {
		if !strings.HasPrefix(e, ".") && e != publish.LatestLink && !strings.HasSuffix(e, ".md") {
			trees[filepath.Join(pub, e)] = tree(t, filepath.Join(pub, e))
		}
	}
	if _, err := os.Stat(out); err == nil {
		trees[out] = tree(t, out)
	}
	return trees
}

// checkAfterCrash: every snapshot there before is unchanged, or (the --out
// folder only) replaced by a complete one; every snapshot verifies; latest
// points at one.
func checkAfterCrash(t *testing.T, name string, before map[string]map[string]string, pub, out string) {
	t.Helper()
	after := snapshotTrees(t, pub, out)
	for dir, files := range before {
		now, ok := after[dir]
		switch {
		case !ok:
			t.Errorf("%s: %s is gone", name, dir)
		case dir != out && !equalTrees(files, now):
			t.Errorf("%s: published snapshot %s changed", name, dir)
		}
	}
	for dir := range after {
		rep, err := verify.Verify(dir)
		if err != nil || !rep.OK() {
			t.Errorf("%s: %s does not verify: %v %v", name, dir, err, rep.Problems())
		}
	}
	published := name == "final --publish" // a publish that had a latest keeps one
	for dir := range before {
		published = published || strings.HasPrefix(dir, pub+string(filepath.Separator))
	}
	if published {
		if latest, err := publish.Latest(pub); err != nil {
			t.Errorf("%s: latest: %v", name, err)
		} else if _, ok := after[latest]; !ok {
			t.Errorf("%s: latest points at %s, not a snapshot", name, latest)
		}
	}
}

func equalTrees(a, b map[string]string) bool { return treeDiff(a, b) == "" }

// treeDiff names the files added, removed or changed from a to b, "" when
// none, so a failing test says which file a refused command touched.
func treeDiff(a, b map[string]string) string {
	var d []string
	for k, v := range a {
		switch w, ok := b[k]; {
		case !ok:
			d = append(d, "-"+k)
		case w != v:
			d = append(d, "~"+k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, "+"+k)
		}
	}
	sort.Strings(d)
	return strings.Join(d, " ")
}

// checkNoRepeats: no header call and no embedded text a run had journaled
// when it was killed is asked for again by a later run of the same target.
// keys gives an item's journal keys (an ambiguous prompt: every chunk it
// could be); an item counts as journaled when its target's journal held
// all of them at the kill.
func checkNoRepeats(t *testing.T, srv *modelfake.Server, runs []crashRun, keys func(path, item string) []string) {
	t.Helper()
	items := func(path string, body []byte) []string {
		if path == modelfake.OllamaChat {
			return []string{string(body)}
		}
		var req struct {
			Input []string `json:"input"`
		}
		json.Unmarshal(body, &req)
		return req.Input
	}
	for _, path := range []string{modelfake.OllamaChat, modelfake.OllamaEmbed} {
		requests := srv.Requests(path)
		repeats, paid := 0, 0
		for i, r := range runs {
			if r.killed.IsZero() {
				continue
			}
			// What this run asked for and had journaled when it died...
			journaled := map[string]bool{}
			for _, body := range requests[r.from[path]:r.to[path]] {
				for _, it := range items(path, body) {
					ks := keys(path, it)
					if len(ks) > 0 && !slices.ContainsFunc(ks, func(k string) bool { return !r.journal[k] }) {
						journaled[it] = true
					}
				}
			}
			paid += len(journaled)
			// ...no later run of the same target asks for again.
			for _, later := range runs[i+1:] {
				if later.target != r.target {
					continue
				}
				for _, body := range requests[later.from[path]:later.to[path]] {
					for _, it := range items(path, body) {
						if journaled[it] {
							repeats++
							delete(journaled, it)
							t.Logf("asked again after run %d was killed: %.120q", i, it)
						}
					}
				}
			}
		}
		if repeats > 0 {
			t.Errorf("%s: %d items journaled before a kill were asked for again by the same target", path, repeats)
		}
		if paid == 0 {
			t.Errorf("%s: no item journaled before a kill: the test checks nothing; kill later", path)
		}
		t.Logf("%s: %d items journaled before kills, %d requests in all", path, paid, len(requests))
	}
}

// promptChunk finds, in a header call's prompt, the document's title and
// the chunk's language, section and text (models' userPrompt).
var (
	promptTitle = regexp.MustCompile(`^<document-\w+>\nTitle: ([^\n]*)\n`)
	promptChunk = regexp.MustCompile(`(?s)\nChunk language: (\S+)\nSection: ([^\n]*)\n<chunk-(\w+)>\n(.*)\n</chunk-\w+>$`)
)

// itemKeys maps a call's item to the journal keys it stands for: a text
// embedded to its vector key; a header prompt to the header keys of every
// chunk with its title, language, section and text in the snapshots the
// runs published (the runs cut the same chunks from the same corpus).
func itemKeys(t *testing.T, pub, out string) func(path, item string) []string {
	t.Helper()
	var cache artifacts.CacheKeys
	headers := map[string][]string{}
	dirs := []string{out}
	for _, e := range readDir(t, pub) {
		if !strings.HasPrefix(e, ".") && e != publish.LatestLink && !strings.HasSuffix(e, ".md") && !strings.HasSuffix(e, ".json") {
			dirs = append(dirs, filepath.Join(pub, e))
		}
	}
	for _, dir := range dirs {
		m, err := artifacts.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		cache = m.CacheKeys
		cf, err := artifacts.OpenChunks(filepath.Join(dir, artifacts.ChunksFile))
		if err != nil {
			t.Fatal(err)
		}
		cur, err := cf.Cursor(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for {
			row, err := cur.Next()
			if err != nil {
				t.Fatal(err)
			}
			if row == nil {
				break
			}
			id := strings.Join([]string{row.DocTitle, string(row.Lang), strings.Join(row.SectionPath, " › "), row.Text}, "\x00")
			if k := "h:" + reuse.HeaderKey(m.CacheKeys.Header, row.DocTitle, *row); !slices.Contains(headers[id], k) {
				headers[id] = append(headers[id], k)
			}
		}
		cur.Close()
		cf.Close()
	}
	return func(path, item string) []string {
		if path == modelfake.OllamaEmbed {
			return []string{"v:" + reuse.VectorKey(cache.Vector, item)} // the journal's kinds of line, h: and v:
		}
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		if json.Unmarshal([]byte(item), &req) != nil {
			return nil
		}
		for _, msg := range req.Messages {
			if msg.Role != "user" {
				continue
			}
			title, chunk := promptTitle.FindStringSubmatch(msg.Content), promptChunk.FindStringSubmatch(msg.Content)
			if title == nil || chunk == nil {
				return nil
			}
			return headers[strings.Join([]string{title[1], chunk[1], chunk[2], chunk[4]}, "\x00")]
		}
		return nil
	}
}

func editCorpus(t *testing.T, dir string, n int) {
	t.Helper()
	p := filepath.Join(dir, "rip-currents.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, []byte("\nA closing paragraph, edit number "+string(rune('0'+n))+", added tonight.\n")...)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readDir(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
