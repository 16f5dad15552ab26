package ollama

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/server"
)

// TestListingCapped: a server whose model listing never ends is cut off
// at MaxAnswerBytes (the Ollama client reads a listing whole), not read
// until memory runs out.
func TestListingCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 64 MiB")
	}
	srv, sent := modelfake.Endless(`{"models":[`, `{"name":"x","model":"x","digest":"`+strings.Repeat("a", 1<<14)+`"},`, 4*server.MaxAnswerBytes)
	defer srv.Close()
	o, err := New(srv.URL, false, "", 30*time.Second, &server.Retrier{Policy: models.RetryPolicy{Tries: 1}, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Lookup(context.Background(), "bge-m3")
	if err == nil || !strings.Contains(err.Error(), server.ErrAnswerTooLarge.Error()) {
		t.Fatalf("got %v, want %q", err, server.ErrAnswerTooLarge)
	}
	if got := sent.Load(); got > 2*server.MaxAnswerBytes {
		t.Errorf("the server sent %d MiB before the client stopped, want about %d", got>>20, server.MaxAnswerBytes>>20)
	}
}
