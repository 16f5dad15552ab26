package console

import (
	"fmt"
	"io"

	"github.com/ocean-safety/ingest/artifacts/verify"
)

// PrintInspection prints what inspect read of a snapshot.
func PrintInspection(w io.Writer, in *verify.Inspection) {
	m, rb := in.Manifest, in.ReadBack
	fmt.Fprintf(w, "snapshot %s\n", in.Dir)
	fmt.Fprintf(w, "  schema %s, tool %s, run %s, created %s\n", m.SchemaVersion, m.ToolVersion, m.RunID, m.CreatedAt)
	fmt.Fprintf(w, "  corpus fingerprint %s\n  config hash %s\n", m.CorpusFingerprint, m.ConfigHash)
	fmt.Fprintf(w, "  embedder %s (%d dims), headers %s, tokenizer %s, budget %d %s\n",
		m.Embedder.Name, m.Embedder.Dims, m.HeaderWriter, m.Tokenizer, m.ChunkMax, m.ChunkUnit)
	fmt.Fprintf(w, "  read back: %d chunks of %d documents (the manifest counts %d documents; one can yield no chunk), %d-dim vectors\n",
		rb.Chunks, rb.Documents, m.Counts.Documents, rb.Dims)
	fmt.Fprintf(w, "  by kind:    %s\n  by lang:    %s\n  by element: %s\n",
		FormatCounts(rb.Counts.ByKind), FormatCounts(rb.Counts.ByLang), FormatCounts(rb.Counts.ByElement))
}

// WriteInspection writes in as JSON, or as PrintInspection's text.
func WriteInspection(w io.Writer, in *verify.Inspection, asJSON bool) error {
	if asJSON {
		return WriteJSON(w, in)
	}
	PrintInspection(w, in)
	return nil
}
