package modelfake

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"
)

func post(t *testing.T, url string, body any) *http.Response {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestFaultWindow checks After and Times: calls 1-2 pass, 3-4 fail, 5 passes.
func TestFaultWindow(t *testing.T) {
	s := New(Options{Dims: 8})
	defer s.Close()
	s.SetFault(Fault{Kind: Status500, Path: OllamaEmbed, After: 2, Times: 2})
	var got []int
	for range 5 {
		got = append(got, post(t, s.URL+OllamaEmbed, map[string]any{"model": "bge-m3", "input": []string{"x"}}).StatusCode)
	}
	want := []int{200, 200, 500, 500, 200}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got statuses %v, want %v", got, want)
		}
	}
}

// TestConcurrentCalls checks the counters under concurrent calls (run with -race).
func TestConcurrentCalls(t *testing.T) {
	s := New(Options{Dims: 8, Latency: time.Millisecond})
	defer s.Close()
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			resp, err := http.Post(s.URL+OpenAIEmbed, "application/json", bytes.NewReader([]byte(`{"model":"bge-m3","input":["a","b"]}`)))
			if err == nil {
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	if got := s.Calls(OpenAIEmbed); got != 20 || len(s.Requests(OpenAIEmbed)) != 20 {
		t.Errorf("got %d calls, %d bodies; want 20", got, len(s.Requests(OpenAIEmbed)))
	}
}

// TestDie checks that a dead server refuses every later call.
func TestDie(t *testing.T) {
	s := New(Options{Dims: 8})
	defer s.Close()
	s.SetFault(Fault{Kind: Die, After: 1})
	post(t, s.URL+OllamaEmbed, map[string]any{"model": "bge-m3", "input": "x"})
	for range 2 {
		if resp, err := http.Post(s.URL+OllamaEmbed, "application/json", bytes.NewReader([]byte(`{}`))); err == nil {
			resp.Body.Close()
			t.Fatalf("got status %d from a dead server, want a connection error", resp.StatusCode)
		}
	}
}

// TestVectorDeterministic checks the vectors' contract: same text, same
// unit vector.
func TestVectorDeterministic(t *testing.T) {
	a, b := Vector("rip current", 16), Vector("rip current", 16)
	var norm float64
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("got different vectors for one text")
		}
		norm += float64(a[i]) * float64(a[i])
	}
	if norm < 0.999 || norm > 1.001 {
		t.Errorf("got squared norm %f, want 1", norm)
	}
}
