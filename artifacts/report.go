package artifacts

import "unicode/utf8"

// Bounds of report.json's lists, each with its reason: a model's answer is
// up to 64 MiB and a corpus has any number of chunks, but a reviewer reads
// the first few of a kind, and counts tell the rest.
const (
	MaxListed    = 100  // rejects, and ungrounded thresholds, listed one by one
	MaxRejectRaw = 2048 // bytes of a rejected answer kept: enough to see what the model did
)

// NewReject is the report's entry for a chunk's unusable answer, the answer
// cut to MaxRejectRaw bytes (at a character boundary).
func NewReject(chunk string, reasons []string, raw string) Reject {
	r := Reject{Chunk: chunk, Reasons: reasons, Raw: CutRaw(raw)}
	if len(r.Raw) < len(raw) {
		r.RawBytes = len(raw)
	}
	return r
}

// CutRaw is raw's first MaxRejectRaw bytes, cut at a character boundary.
func CutRaw(raw string) string {
	if len(raw) <= MaxRejectRaw {
		return raw
	}
	cut := MaxRejectRaw
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return raw[:cut]
}

// AddRejects counts rejects and lists them while fewer than MaxListed are.
func (m *ModelReport) AddRejects(rs ...Reject) {
	m.RejectsTotal += len(rs)
	m.Rejects = appendListed(m.Rejects, rs)
}

// AddUngrounded counts thresholds and lists them while fewer than
// MaxListed are.
func (m *ModelReport) AddUngrounded(us ...UngroundedThreshold) {
	m.UngroundedTotal += len(us)
	m.Ungrounded = appendListed(m.Ungrounded, us)
}

func appendListed[T any](dst, src []T) []T {
	if n := MaxListed - len(dst); n > 0 {
		return append(dst, src[:min(n, len(src))]...)
	}
	return dst
}
