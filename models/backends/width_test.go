package backends

import (
	"testing"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/remote"
)

// TestAnnouncedSlots: an OpenAI-compatible server that says its slots
// (llama-server's /props total_slots) gets that many calls in flight, capped,
// and the report says where the number came from; one that says nothing
// starts at DefaultStartWidth, learned.
func TestAnnouncedSlots(t *testing.T) {
	for _, tc := range []struct {
		announce  bool
		cap, want int
		from      string
	}{{true, 0, 6, remote.WidthServer}, {true, 4, 4, remote.WidthServer}, {false, 0, models.DefaultStartWidth, remote.WidthLearned}} {
		_, h, _ := openFakeBackends(t, backendKinds[1], modelfake.Options{Slots: 6, AnnounceSlots: tc.announce}, func(c *models.BackendConfig) { c.LLMMaxConcurrency = tc.cap })
		if got := h.Width(0); got != tc.want {
			t.Errorf("announce %v, cap %d: got width %d, want %d", tc.announce, tc.cap, got, tc.want)
		}
		if eps := h.Stats().Endpoints; len(eps) != 1 || eps[0].InFlightFrom != tc.from {
			t.Errorf("announce %v: got endpoints %+v, want one %s", tc.announce, eps, tc.from)
		}
	}
}
