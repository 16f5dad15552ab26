package artifacts

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/ocean-safety/ingest/artifacts/diagnostics"
	"github.com/ocean-safety/ingest/schema"
)

// File names inside a snapshot.
const (
	ChunksFile      = "chunks.parquet"
	ManifestFile    = "manifest.json"
	ReportFile      = "report.json"
	ThresholdsFile  = "thresholds.md"
	AuditFile       = "audit.jsonl"
	DiagnosticsFile = diagnostics.File // every diagnostic, beside the report's sample
)

// ToolName marks a manifest this tool wrote (Manifest.Tool).
const ToolName = "ingest"

// Manifest describes a snapshot: what made it and what it holds. It is
// written last, so a snapshot with a manifest is complete.
type Manifest struct {
	// Tool is ToolName: what tells a snapshot from a folder that happens to
	// hold a manifest.json (see publish's owned).
	Tool              string    `json:"tool"`
	SchemaVersion     string    `json:"schema_version"`
	ToolVersion       string    `json:"tool_version"`
	RunID             string    `json:"run_id"`
	CreatedAt         string    `json:"created_at"`
	CorpusFingerprint string    `json:"corpus_fingerprint"` // SHA-256 over (path, doc_version) of every ingested document
	InputFingerprint  string    `json:"input_fingerprint"`  // SHA-256 over (path, bytes) of every file under the corpus, skipped ones by name
	BuildID           string    `json:"build_id"`           // SHA-256 of the ingest executable that made it
	ConfigHash        string    `json:"config_hash"`
	HeaderWriter      string    `json:"header_writer"`
	Embedder          Component `json:"embedder"`
	Tokenizer         string    `json:"tokenizer"`
	ChunkUnit         string    `json:"chunk_unit"`
	ChunkMax          int       `json:"chunk_max"`
	Counts            Counts    `json:"counts"`
	// EmptyDocuments are the ingested documents (of Counts.Documents) that
	// yielded no chunk (a title and nothing else), sorted: in no row of
	// chunks.parquet, so a diff and a reader learn of them here. A document
	// count is Counts.Documents wherever it is shown (list, the summary,
	// diff), these included.
	EmptyDocuments []string            `json:"documents_without_chunks,omitempty"`
	Diagnostics    map[string]int      `json:"diagnostics"` // per severity
	Files          map[string]FileInfo `json:"files"`
	// CacheKeys are the run-wide parts of the reuse keys of this snapshot's
	// headers and vectors: the next run reuses a row only under the same key.
	CacheKeys CacheKeys `json:"cache_keys"`
	// Previous is the snapshot this run reused from, if any.
	Previous *PreviousRef `json:"previous,omitempty"`
	Calls    Calls        `json:"calls"`
	// Shard marks a part snapshot (ingest index --shard K/N): one shard's
	// documents, for ingest merge. Consumers read only whole snapshots.
	Shard *ShardInfo `json:"shard,omitempty"`
	// RelevanceFloor is where a search of this snapshot stops ranking
	// noise; nil when none is calibrated for its embedder (and in
	// snapshots made before it was recorded).
	RelevanceFloor *RelevanceFloor `json:"relevance_floor,omitempty"`
}

// RelevanceFloor is the relevance below which a question's best passage
// counts as "nothing relevant" (ingest search exits 4), per search mode,
// and how it was set, for consumers that cut results themselves.
type RelevanceFloor struct {
	// Scale names the relevance the floors are on (search's, e.g.
	// "relevance-v2"): a reader of another scale ignores them.
	Scale    string `json:"scale"`
	Embedder string `json:"embedder"` // the embedder they hold for: the manifest's
	// Modes are the floors per search mode: bm25, vector, hybrid.
	Modes map[string]float64 `json:"modes"`
	// Method says how they were set: on which questions, by which rule.
	Method string `json:"method"`
}

// CacheKeys: see Manifest.CacheKeys.
type CacheKeys struct {
	Header string `json:"header"`
	Vector string `json:"vector"`
}

// PreviousRef links a snapshot to the one before it.
type PreviousRef struct {
	Name              string `json:"name"` // its folder name in a publish layout (artifacts.SnapshotName)
	CorpusFingerprint string `json:"corpus_fingerprint"`
	RunID             string `json:"run_id"`
	ChunksSHA256      string `json:"chunks_sha256"`
}

// Calls counts the work a run paid for and the work it reused.
type Calls struct {
	HeaderCalls   int `json:"header_calls"`      // model calls for headers, repairs included
	EmbedCalls    int `json:"embed_calls"`       // embedding requests
	HeadersReused int `json:"headers_reused"`    // from the previous snapshot or the journal
	VectorsReused int `json:"vectors_reused"`    // from the previous snapshot or the journal
	FromJournal   int `json:"from_journal"`      // of the reused, how many an interrupted run had paid for
	Superseded    int `json:"chunks_superseded"` // previous chunks not in this snapshot
}

// Component names a model-backed part and its shape.
type Component struct {
	Name string `json:"name"`
	Dims int    `json:"dims"`
}

// Counts are the snapshot's sizes.
type Counts struct {
	Documents int            `json:"documents"`
	Rejected  int            `json:"rejected"`
	Drafts    int            `json:"drafts"`   // draft: true, not ingested
	Excluded  int            `json:"excluded"` // left out by the include/exclude globs
	Skipped   int            `json:"skipped_files"`
	Chunks    int            `json:"chunks"`
	ByKind    map[string]int `json:"by_kind"`
	ByLang    map[string]int `json:"by_lang"`
	ByElement map[string]int `json:"by_element"`
}

// Add counts one chunk.
func (c *Counts) Add(ch schema.Chunk) {
	if c.ByKind == nil {
		c.ByKind, c.ByLang, c.ByElement = map[string]int{}, map[string]int{}, map[string]int{}
	}
	c.Chunks++
	c.ByKind[string(ch.Kind)]++
	c.ByLang[string(ch.Lang)]++
	c.ByElement[string(ch.Element)]++
}

// FileInfo identifies one file of the snapshot.
type FileInfo struct {
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
	Rows   int    `json:"rows,omitempty"`
}

// Report is what a run did: its diagnostics counted and sampled (every one
// is in DiagnosticsFile), the skipped files, and the work and time of each
// stage.
type Report struct {
	RunID  string `json:"run_id"`
	Status string `json:"status"` // ok | partial
	// Diagnostics is a sample: the first diagnostics.MaxSampled of each
	// code, in the run's order (its own first, then by document path and
	// line); DiagnosticsByCode counts every one, and DiagnosticsFile holds
	// them all, in that order (see SetDiagnostics).
	Diagnostics       []schema.Diagnostic `json:"diagnostics"`
	DiagnosticsByCode []diagnostics.Count `json:"diagnostics_by_code"`
	// SetupDiagnostics is how many of DiagnosticsFile's lines, at its head,
	// are the run's own (its listing's, its previous snapshot's): a
	// republishing run writes its own in their place.
	SetupDiagnostics int `json:"setup_diagnostics,omitempty"`
	// Unlisted is what a report written before DiagnosticsFile counted past
	// the diagnostics it listed (DiagnosticsByCode absent): read, never
	// written.
	Unlisted []Unlisted `json:"diagnostics_unlisted,omitempty"`
	// Skipped lists the first MaxListedPerCode skipped files of each reason;
	// SkippedUnlisted counts the others by reason.
	Skipped         []schema.Skipped `json:"skipped_files"`
	SkippedUnlisted map[string]int   `json:"skipped_unlisted,omitempty"`
	Stages          []StageStat      `json:"stages"`
	Seconds         float64          `json:"seconds"`
	// LangFrom counts the documents by how their language was decided:
	// document (a Lang: line or lang key), path (a language folder),
	// detected (their words), default (default_lang).
	LangFrom map[string]int `json:"documents_by_lang_source"`
	// Markup counts what was removed from the documents' text, by kind:
	// shortcode, html_comment, html_tag, attribute_list, admonition,
	// mdx_import, link_definition, and chunks that were only markup.
	Markup map[string]int `json:"markup_removed"`
	// ChunkSizes is the size distribution of the snapshot's chunks in the
	// budget's unit: a merge of parts reports what one run would.
	ChunkSizes *ChunkSizes  `json:"chunk_sizes,omitempty"`
	Models     *ModelReport `json:"models,omitempty"` // when a model server did the work
}

// ChunkSizes summarises chunk sizes in the budget's unit (chars or tokens):
// over all chunks and per "kind/element", and the prose chunks of prose and
// structured documents that are under chunk.min (the fragments merging left).
type ChunkSizes struct {
	Unit          string                      `json:"unit"`
	Max           int                         `json:"max"`
	Min           int                         `json:"min"`
	All           schema.SizeStats            `json:"all"`
	ByKindElement map[string]schema.SizeStats `json:"by_kind_element"`
	Prose         int                         `json:"prose"`
	UnderMin      int                         `json:"prose_under_min"`
}

// NewChunkSizes summarises a tally of a snapshot's rows.
func NewChunkSizes(t *schema.SizeTally, max int) *ChunkSizes {
	cs := &ChunkSizes{Unit: t.Unit, Max: max, Min: t.Min, All: t.Sizes.Stats(""), ByKindElement: map[string]schema.SizeStats{},
		Prose: t.Prose, UnderMin: t.UnderMin}
	for _, g := range t.Sizes.Groups() {
		cs.ByKindElement[g] = t.Sizes.Stats(g)
	}
	return cs
}

// ModelReport is what the model servers did, and the answers not used as
// is: the first MaxListed of each list, in corpus order, and a count of all.
type ModelReport struct {
	Headers  *schema.ModelStats `json:"headers,omitempty"`  // the header writer's call counts
	Embedder *schema.ModelStats `json:"embedder,omitempty"` // the embedder's call counts
	// Rejects are chunks whose header is a fallback (answers that failed
	// validation twice, or chunks not sent): the first MaxListed, each answer
	// cut to MaxRejectRaw bytes; RejectsTotal counts them all.
	Rejects          []Reject              `json:"rejects"`
	RejectsTotal     int                   `json:"rejects_total"`
	Ungrounded       []UngroundedThreshold `json:"ungrounded_thresholds"`
	UngroundedTotal  int                   `json:"ungrounded_total"`
	Truncations      []schema.Truncation   `json:"truncations,omitempty"`       // inputs the embedder may have cut: the first MaxListed by input hash
	TruncationsTotal int                   `json:"truncations_total,omitempty"` // all of them, when more than are listed
}

// Reject is a chunk whose model answer could not be used, kept for review.
type Reject struct {
	Chunk   string   `json:"chunk"`   // path#ordinal
	Reasons []string `json:"reasons"` // the checks it failed (README, "Model answers")
	// Raw is the answer's first MaxRejectRaw bytes; RawBytes its whole size
	// when it was cut.
	Raw      string `json:"raw"`
	RawBytes int    `json:"raw_bytes,omitempty"`
	// Reused marks a fallback this run took from the previous snapshot or
	// the journal (no call made): Raw is what the journal kept, "" from a
	// snapshot.
	Reused bool `json:"reused,omitempty"`
}

// UngroundedThreshold is a threshold a model proposed that the chunk's text
// does not state (no quantity of that value found): counted, not accepted.
type UngroundedThreshold struct {
	Chunk      string  `json:"chunk"`
	Subject    string  `json:"subject"`
	Comparator string  `json:"comparator"`
	Value      float64 `json:"value"`
	Unit       string  `json:"unit"`
}

// StageStat is one stage's work: items handled and time spent in it, summed
// over workers.
type StageStat struct {
	Name    string  `json:"name"`
	Items   int     `json:"items"`
	Seconds float64 `json:"seconds"`
}

// WriteJSON writes v as indented JSON to path and syncs it.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return WriteFileSync(path, append(b, '\n'))
}

// ManifestBytes reads a snapshot's manifest.json as it is (bounded, a
// regular file only): what a hash of the manifest is taken over.
func ManifestBytes(dir string) ([]byte, error) {
	return ReadRegular(dir+string(os.PathSeparator)+ManifestFile, maxManifestBytes)
}

// ReadManifest reads a snapshot's manifest.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	b, err := ManifestBytes(dir)
	if err != nil {
		return m, fmt.Errorf("read manifest: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("read manifest %s: %w", dir, err)
	}
	return m, nil
}

// ReadReport reads a snapshot's report.
func ReadReport(dir string) (Report, error) {
	var r Report
	b, err := ReadRegular(dir+string(os.PathSeparator)+ReportFile, maxReportBytes)
	if err != nil {
		return r, fmt.Errorf("read report: %w", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("read report %s: %w", dir, err)
	}
	return r, nil
}

func WriteFileSync(path string, b []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return f.Close()
}

// ShardInfo marks a part snapshot: the documents of one shard of a corpus.
// A part is a snapshot like any other (it verifies, and the same shard's
// next run reuses it), but consumers read only the merge of all parts.
type ShardInfo struct {
	Index int `json:"index"`
	Count int `json:"count"`
	// Run names the sharded run the part belongs to (--run-id: a Job's
	// name, a CI run's id); a merge refuses parts of different runs, so a
	// shard that failed tonight cannot be filled in with last night's part.
	Run string `json:"run,omitempty"`
	// Listing is the fingerprint of the whole corpus listing every part
	// scanned, and Listed its documents: parts of one run agree on both,
	// and together hold Listed documents.
	Listing string `json:"listing"`
	Listed  int    `json:"listed"`
	// Content is the input fingerprint of the whole corpus as this part
	// read it (every listed document's bytes, not only its own shard's, and
	// the skipped files): parts of one run agree on it, and their documents
	// lists add up to it, so parts of different corpus contents — a corpus
	// edited while the shards ran, shards given different copies — are
	// refused, whatever their run ids.
	Content string `json:"content"`
	// The report's diagnostics start with those found before any document:
	// the first ListingDiagnostics are about the whole listing (names that
	// are not UTF-8; every part has them, a merge keeps one copy), then the
	// part's own up to SetupDiagnostics (a previous snapshot not trusted).
	ListingDiagnostics int `json:"listing_diagnostics"`
	SetupDiagnostics   int `json:"setup_diagnostics"`
	// Sizes is the tally of the part's chunk sizes, which a merge adds up
	// instead of reading the text of every row (none from an older ingest).
	Sizes *schema.SizeTally `json:"sizes,omitempty"`
}
