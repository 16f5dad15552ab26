package reuse

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// A chunk's header and vector are reused, from the previous snapshot or the
// journal of an interrupted run, only under a key that covers everything
// that shaped them: for a header the writer (model digest, prompt version),
// its length cap, the document title and the chunk's content hash, section
// path, kind, language and element; for a vector the embedder (model digest),
// its dimensions and the exact text it embedded (which holds the header).

// CacheKeys returns the run-wide parts of the keys; they go in the manifest
// so the next run can key the rows of this snapshot.
func CacheKeys(headerWriter string, headerMaxChars int, embedder string, dims int) artifacts.CacheKeys {
	return artifacts.CacheKeys{
		Header: artifacts.HeaderCacheKey(headerWriter, headerMaxChars),
		Vector: artifacts.VectorCacheKey(artifacts.Component{Name: embedder, Dims: dims}),
	}
}

// HeaderKey is the key of a chunk's header and fields: everything a header
// writer reads of the chunk. The lead-in is a part only when the chunk has
// one, so the keys of chunks without one are what they were before lead-ins.
func HeaderKey(prefix, title string, c schema.Chunk) string {
	parts := []string{prefix, title, c.ContentHash, strings.Join(c.SectionPath, "\x1f"), string(c.Kind), string(c.Lang), string(c.Element)}
	if c.LeadIn != "" {
		parts = append(parts, "lead_in="+c.LeadIn)
	}
	return digest(parts...)
}

// VectorKey is the key of the vector of an embed input.
func VectorKey(prefix, input string) string { return digest(prefix, input) }

func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Enrichment is a reusable header with its fields. A fallback
// (schema.HeaderExtractiveFallback) is reused too, with why the model's
// answer failed: asking again would pay for the same answer.
type Enrichment struct {
	Header     string             `json:"header"`
	Source     string             `json:"source"`
	Fields     schema.Fields      `json:"fields"`
	Thresholds []schema.Threshold `json:"thresholds,omitempty"` // the model's, grounded
	Reasons    []string           `json:"reasons,omitempty"`    // a fallback's: the checks the last answer failed
	Raw        string             `json:"raw,omitempty"`        // a fallback's answer, cut to artifacts.MaxRejectRaw (journal only)
	RawBytes   int                `json:"raw_bytes,omitempty"`  // the whole answer's size, when Raw is cut
}

// Fallback reports whether e is a fallback header: a model answered (or
// was not asked) and the answer could not be used.
func (e Enrichment) Fallback() bool { return e.Source == schema.HeaderExtractiveFallback }
