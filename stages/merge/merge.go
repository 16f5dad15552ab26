package merge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/audit"
	"github.com/ocean-safety/ingest/artifacts/diagnostics"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/settings"
	"github.com/ocean-safety/ingest/thresholds"
)

// ErrMismatch is a set of part snapshots that do not make one run: a shard
// missing or given twice, parts of different corpora, configs or builds.
var ErrMismatch = errors.New("parts do not make one run")

// Config guards what a merge publishes, as Config.Publish and
// Config.AllowShrink guard a run.
type Config struct {
	// Publish is the run config's (DefaultConfig's without a file): its
	// max_shrink as given, 0 letting no document go.
	Publish     settings.PublishConfig
	AllowShrink bool
	// Run, when set, is the run every part must belong to (--run-id).
	Run string
}

// Merge assembles the part snapshots of a sharded run (ingest index --shard
// K/N, one folder per shard, in any order) into one snapshot published at
// target: the same chunks.parquet, thresholds.md and counts, byte for byte,
// as one unsharded run of the corpus would make. Rows are merged in
// (doc_path, chunk_order) order reading one row group of each part at a
// time, so memory does not grow with the corpus. Parts that do not make one
// run fail with ErrMismatch before anything is written.
func Merge(ctx context.Context, parts []string, cfg Config, target publish.Target, opt stages.Options) (*stages.Result, error) {
	start := time.Now()
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Reporter == nil {
		opt.Reporter = stages.Discard
	}
	if err := cfg.Publish.Validate(); err != nil {
		return nil, err
	}
	ps, err := openParts(parts)
	if err != nil {
		return nil, err
	}
	if got := ps[0].m.Shard.Run; cfg.Run != "" && got != cfg.Run {
		return nil, fmt.Errorf("%w: the parts belong to run %q, not %q", ErrMismatch, got, cfg.Run)
	}
	lock, err := stages.Claim(ctx, target, "", false, opt.LockWait)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	stage, err := target.Stage()
	if err != nil {
		return nil, err
	}
	m := &merger{parts: ps, cfg: cfg, target: target, stage: stage, opt: opt, runID: stages.NewRunID()}
	res, err := m.merge(ctx, start)
	if err != nil {
		_ = stage.Abort()
		return nil, err
	}
	pub, err := stage.Commit(ctx)
	if pub != nil {
		res.Published = *pub
		res.Cleaned = lock.Cleaned
		opt.Logger.Info("merged", "parts", len(ps), "path", pub.Path, "documents", res.Manifest.Counts.Documents, "chunks", res.Manifest.Counts.Chunks)
	}
	return res, err
}

// part is one opened part snapshot.
type part struct {
	dir    string
	m      artifacts.Manifest
	report artifacts.Report
}

// openParts reads the parts' manifests and reports, checks each part's
// files against its manifest, and checks the parts make one run: every
// shard of the same count exactly once, from the same corpus listing,
// config, build and models. The parts come back in shard order.
func openParts(dirs []string) ([]part, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%w: no part given", ErrMismatch)
	}
	var ps []part
	for _, dir := range dirs {
		m, err := artifacts.ReadManifest(dir)
		if err != nil {
			return nil, fmt.Errorf("part %s: %w", dir, err)
		}
		if m.Shard == nil {
			return nil, fmt.Errorf("%w: %s is a whole snapshot, not a part (made without --shard)", ErrMismatch, dir)
		}
		if m.SchemaVersion != artifacts.SchemaVersion {
			return nil, fmt.Errorf("%w: part %s has schema version %q, this build writes %q", ErrMismatch, dir, m.SchemaVersion, artifacts.SchemaVersion)
		}
		for _, name := range []string{artifacts.ChunksFile, artifacts.DocumentsFile, artifacts.ReportFile, artifacts.DiagnosticsFile} {
			want, ok := m.Files[name]
			if !ok && name == artifacts.DiagnosticsFile {
				return nil, fmt.Errorf("%w: part %s has no %s (made by an older ingest): run the shards again", ErrMismatch, dir, name)
			}
			if !ok {
				return nil, fmt.Errorf("part %s: the manifest lists no %s", dir, name)
			}
			got, err := artifacts.DescribeDeclared(filepath.Join(dir, name), want.Bytes)
			if err != nil {
				return nil, fmt.Errorf("part %s: %w", dir, err)
			}
			if got.SHA256 != want.SHA256 || got.Bytes != want.Bytes {
				return nil, fmt.Errorf("part %s: %s is not the file its manifest describes", dir, name)
			}
		}
		rep, err := artifacts.ReadReport(dir)
		if err != nil {
			return nil, fmt.Errorf("part %s: %w", dir, err)
		}
		if sh := m.Shard; sh.ListingDiagnostics > sh.SetupDiagnostics || sh.SetupDiagnostics > m.Files[artifacts.DiagnosticsFile].Rows {
			return nil, fmt.Errorf("part %s: the manifest's diagnostic counts do not fit its %s", dir, artifacts.DiagnosticsFile)
		}
		ps = append(ps, part{dir: dir, m: m, report: rep})
	}
	slices.SortFunc(ps, func(a, b part) int { return a.m.Shard.Index - b.m.Shard.Index })
	first := ps[0].m
	n := first.Shard.Count
	for i, p := range ps {
		sh := p.m.Shard
		switch {
		case sh.Count != n:
			return nil, fmt.Errorf("%w: %s is shard %d of %d, %s of %d", ErrMismatch, p.dir, sh.Index, sh.Count, ps[0].dir, n)
		case i > 0 && sh.Index == ps[i-1].m.Shard.Index:
			return nil, fmt.Errorf("%w: shard %d of %d given twice (%s and %s)", ErrMismatch, sh.Index, n, ps[i-1].dir, p.dir)
		}
		if diff := sameRun(first, p.m); diff != "" {
			return nil, fmt.Errorf("%w: %s and %s differ in %s", ErrMismatch, ps[0].dir, p.dir, diff)
		}
	}
	if len(ps) != n {
		var missing []int
		have := map[int]bool{}
		for _, p := range ps {
			have[p.m.Shard.Index] = true
		}
		for k := range n {
			if !have[k] {
				missing = append(missing, k)
			}
		}
		return nil, fmt.Errorf("%w: %d of %d shards given; missing shard %v", ErrMismatch, len(ps), n, missing)
	}
	return ps, nil
}

// sameRun names the first thing that tells two parts apart as runs, or "".
func sameRun(a, b artifacts.Manifest) string {
	checks := []struct {
		what string
		same bool
	}{
		{fmt.Sprintf("run (%q and %q: a part left from another run?)", a.Shard.Run, b.Shard.Run), a.Shard.Run == b.Shard.Run},
		{"corpus listing (the corpus changed between shards)", a.Shard.Listing == b.Shard.Listing && a.Shard.Listed == b.Shard.Listed},
		{"corpus content (a document changed between shards, or they read different copies of the corpus)", a.Shard.Content == b.Shard.Content},
		{"config", a.ConfigHash == b.ConfigHash},
		{"ingest build", a.BuildID == b.BuildID && a.ToolVersion == b.ToolVersion},
		{"header writer", a.HeaderWriter == b.HeaderWriter},
		{"embedder", a.Embedder == b.Embedder},
		{"cache keys", a.CacheKeys == b.CacheKeys},
		{"tokenizer or chunk size", a.Tokenizer == b.Tokenizer && a.ChunkUnit == b.ChunkUnit && a.ChunkMax == b.ChunkMax},
		{"skipped files", a.Counts.Skipped == b.Counts.Skipped && a.Counts.Excluded == b.Counts.Excluded},
	}
	for _, c := range checks {
		if !c.same {
			return c.what
		}
	}
	return ""
}

// merger is one merge.
type merger struct {
	parts  []part
	cfg    Config
	target publish.Target
	stage  *publish.Staging
	opt    stages.Options
	runID  string
	diags  *diagnostics.Writer      // the merged diagnostics.jsonl, the parts' in the order one run writes them
	docs   *artifacts.PartDocWriter // the merged documents.jsonl: the parts' lines in corpus order, as one run writes them
}

// docTotals is what the documents lists add up to.
type docTotals struct {
	counts      artifacts.Counts
	fingerprint hash.Hash
	input       hash.Hash
	setup       int                   // of the diagnostics, at their head, the runs' own: the listing's and each part's setup
	models      artifacts.ModelReport // rejects and ungrounded thresholds, listed and counted
}

func (m *merger) merge(ctx context.Context, start time.Time) (_ *stages.Result, err error) {
	first := m.parts[0]
	if m.diags, err = diagnostics.Create(m.stage.Path(artifacts.DiagnosticsFile)); err != nil {
		return nil, err
	}
	if m.docs, err = artifacts.CreatePartDocs(m.stage.Path(artifacts.DocumentsFile)); err != nil {
		m.diags.Abort()
		return nil, err
	}
	defer func() {
		if err != nil {
			m.diags.Abort()
			m.docs.Abort()
		}
	}()
	dt, err := m.documents()
	if err != nil {
		return nil, err
	}
	input := stages.InputFingerprint(dt.input, first.report.Skipped)
	switch {
	case first.m.Shard.Content == "":
		return nil, fmt.Errorf("%w: the parts record no corpus content fingerprint (made by an older ingest): run the shards again", ErrMismatch)
	case input != first.m.Shard.Content:
		return nil, fmt.Errorf("%w: the documents the parts read are not the corpus every part fingerprinted (a document changed while its shard ran): run the shards again", ErrMismatch)
	}
	if err := m.plausible(dt.counts.Documents); err != nil {
		return nil, err
	}
	sizes, tallied := m.sizes()
	rows, ts, info, err := m.chunks(ctx, first.m.Embedder.Dims, &sizes, tallied) // the rows first: their counts go into the manifest
	if err != nil {
		return nil, err
	}
	counts := rows
	counts.Documents, counts.Rejected, counts.Drafts = dt.counts.Documents, dt.counts.Rejected, dt.counts.Drafts
	counts.Skipped, counts.Excluded = first.m.Counts.Skipped, first.m.Counts.Excluded
	if counts.ByKind == nil {
		counts.ByKind, counts.ByLang, counts.ByElement = map[string]int{}, map[string]int{}, map[string]int{}
	}
	var calls artifacts.Calls
	var audits []audit.Part
	for _, p := range m.parts {
		calls.Add(p.m.Calls)
		audits = append(audits, audit.Part{Path: filepath.Join(p.dir, artifacts.AuditFile), Trace: p.m.RunID})
	}
	audit, err := audit.Merge(m.stage.Path(artifacts.AuditFile), m.runID, audits)
	if err != nil {
		return nil, err
	}
	rep := m.report(dt, start)
	rep.ChunkSizes = artifacts.NewChunkSizes(&sizes, first.m.ChunkMax)

	man := first.m
	man.Tool = artifacts.ToolName
	man.RunID = m.runID
	man.CreatedAt = time.Now().UTC().Format(time.RFC3339)
	man.CorpusFingerprint = hex.EncodeToString(dt.fingerprint.Sum(nil))
	man.InputFingerprint = input
	man.Counts = counts
	man.EmptyDocuments = nil // a path is in one part only: the parts' lists, merged
	for _, p := range m.parts {
		man.EmptyDocuments = append(man.EmptyDocuments, p.m.EmptyDocuments...)
	}
	slices.Sort(man.EmptyDocuments)
	man.Calls = calls
	man.Shard = nil
	man.Previous = commonPrevious(m.parts)
	return stages.Seal(m.stage, stages.Closing{
		Chunks:     func() (int, error) { return rows.Chunks, nil }, // written and closed by m.chunks
		ChunksInfo: func() artifacts.FileInfo { return info },
		Thresholds: ts, Audit: audit, AuditMore: map[string]int{"parts": len(m.parts)},
		Diagnostics: m.diags, Report: rep, Setup: dt.setup, Manifest: man,
		Documents: func() (int, error) {
			if err := m.docs.Close(); err != nil {
				return 0, err
			}
			return first.m.Shard.Listed, nil
		},
	})
}

// documents walks the parts' documents lists in corpus order (each part's
// list is in corpus order; a path is in one part only) and adds up the
// counts, the fingerprints and each document's share of its part's report;
// each document's diagnostics are copied from its part's diagnostics.jsonl,
// read in step with the list, to the merged one.
func (m *merger) documents() (docTotals, error) {
	dt := docTotals{fingerprint: sha256.New(), input: sha256.New()}
	type head struct {
		r          *artifacts.PartDocReader
		diags      *diagnostics.Reader
		doc        nextDoc
		rej        int // next of the part's rejects
		ungrounded int
	}
	heads := make([]*head, len(m.parts))
	for i, p := range m.parts {
		r, err := artifacts.OpenPartDocs(p.dir)
		if err != nil {
			return dt, fmt.Errorf("part %s: %w", p.dir, err)
		}
		defer r.Close()
		f, err := artifacts.OpenDeclared(filepath.Join(p.dir, artifacts.DiagnosticsFile), p.m.Files[artifacts.DiagnosticsFile].Bytes)
		if err != nil {
			return dt, fmt.Errorf("part %s: %w", p.dir, err)
		}
		defer f.Close()
		h := &head{r: r, diags: diagnostics.NewReader(f)}
		if err := h.doc.read(r); err != nil {
			return dt, fmt.Errorf("part %s: %w", p.dir, err)
		}
		heads[i] = h
	}
	// The whole listing's diagnostics once (every part's file opens with
	// them), then each part's own setup ones.
	for i, p := range m.parts {
		to := m.diags
		if i > 0 {
			to = nil
		}
		if err := diagnostics.Copy(to, heads[i].diags, p.m.Shard.ListingDiagnostics, nil); err != nil {
			return dt, fmt.Errorf("part %s: %w", p.dir, err)
		}
	}
	for i, p := range m.parts {
		if err := diagnostics.Copy(m.diags, heads[i].diags, p.m.Shard.SetupDiagnostics-p.m.Shard.ListingDiagnostics, nil); err != nil {
			return dt, fmt.Errorf("part %s: %w", p.dir, err)
		}
	}
	dt.setup = m.diags.Digest().Len()
	last := ""
	total := 0
	for {
		at := -1
		for i, h := range heads {
			if !h.doc.eof && (at < 0 || h.doc.d.Path < heads[at].doc.d.Path) {
				at = i
			}
		}
		if at < 0 {
			break
		}
		h, p := heads[at], m.parts[at]
		d := h.doc.d
		if total > 0 && d.Path <= last {
			return dt, fmt.Errorf("%w: %s is listed twice or out of order (part %s)", ErrMismatch, d.Path, p.dir)
		}
		last = d.Path
		total++
		m.docs.Write(d)
		stages.InputLine(dt.input, d.Path, d.Input)
		switch d.Status {
		case artifacts.DocIngested:
			dt.counts.Documents++
			fmt.Fprintf(dt.fingerprint, "%s\x00%s\n", d.Path, d.Version)
		case artifacts.DocRejected:
			dt.counts.Rejected++
		case artifacts.DocDraft:
			dt.counts.Drafts++
		default:
			return dt, fmt.Errorf("part %s: %s: status %q", p.dir, d.Path, d.Status)
		}
		if err := diagnostics.Copy(m.diags, h.diags, d.Diagnostics, nil); err != nil {
			return dt, fmt.Errorf("part %s: %s: diagnostics: %w", p.dir, d.Path, err)
		}
		var mr artifacts.ModelReport
		if p.report.Models != nil {
			mr = *p.report.Models
		}
		var rejects []artifacts.Reject
		var err error
		if rejects, h.rej, err = takeListed(mr.Rejects, h.rej, d.Rejects); err != nil {
			return dt, fmt.Errorf("part %s: %s: rejects: %w", p.dir, d.Path, err)
		}
		dt.models.AddRejects(rejects...)
		dt.models.RejectsTotal += d.Rejects - len(rejects)
		var ungrounded []artifacts.UngroundedThreshold
		if ungrounded, h.ungrounded, err = takeListed(mr.Ungrounded, h.ungrounded, d.Ungrounded); err != nil {
			return dt, fmt.Errorf("part %s: %s: ungrounded thresholds: %w", p.dir, d.Path, err)
		}
		dt.models.AddUngrounded(ungrounded...)
		dt.models.UngroundedTotal += d.Ungrounded - len(ungrounded)
		if err := h.doc.read(h.r); err != nil {
			return dt, fmt.Errorf("part %s: %w", p.dir, err)
		}
	}
	if listed := m.parts[0].m.Shard.Listed; total != listed {
		return dt, fmt.Errorf("%w: the parts account for %d documents, the corpus listing has %d", ErrMismatch, total, listed)
	}
	for i, h := range heads {
		if _, err := h.diags.Next(); !errors.Is(err, io.EOF) {
			return dt, fmt.Errorf("part %s: %s holds more diagnostics than its documents list accounts for", m.parts[i].dir, artifacts.DiagnosticsFile)
		}
	}
	return dt, nil
}

// nextDoc is a documents list's next line.
type nextDoc struct {
	d   artifacts.PartDoc
	eof bool
}

func (h *nextDoc) read(r *artifacts.PartDocReader) error {
	d, err := r.Next()
	if errors.Is(err, io.EOF) {
		h.eof = true
		return nil
	}
	h.d = d
	return err
}

// takeListed takes a document's n entries of a part's bounded list, from
// from on: a part lists its first artifacts.MaxListed entries and counts
// the rest, so a document's entries past the list are only counted. The first MaxListed of the whole run are
// among the parts' first MaxListed each, so the merged list is the one a
// single run would have written.
func takeListed[T any](src []T, from, n int) ([]T, int, error) {
	if from+n > len(src) && len(src) < artifacts.MaxListed {
		return nil, from, fmt.Errorf("the documents list counts %d more than the report holds", from+n-len(src))
	}
	k := max(0, min(n, len(src)-from))
	return src[from : from+k], from + k, nil
}

// sizes is the tally of the merged rows' sizes: the parts' tallies added
// up (tallied) when every part has one that counts its rows, else an empty
// one that chunks fills from the rows' text.
func (m *merger) sizes() (schema.SizeTally, bool) {
	first := m.parts[0]
	out := schema.SizeTally{Unit: first.m.ChunkUnit}
	if cs := first.report.ChunkSizes; cs != nil {
		out.Min = cs.Min
	}
	for _, p := range m.parts {
		// None from an older ingest; one that counts other rows than the
		// part holds (a manifest edited by hand) is not believed either.
		if t := p.m.Shard.Sizes; t == nil || t.Unit != out.Unit || t.Min != out.Min || t.Sizes.Stats("").Count != p.m.Counts.Chunks {
			return out, false
		}
	}
	for _, p := range m.parts {
		out.Merge(*p.m.Shard.Sizes)
	}
	return out, true
}

// chunks writes the parts' rows, merged in (doc_path, chunk_order) order,
// to the staged chunks.parquet, and returns their counts and the thresholds
// proposal; it adds their sizes to sizes unless they are tallied already.
func (m *merger) chunks(ctx context.Context, dims int, sizes *schema.SizeTally, tallied bool) (artifacts.Counts, *thresholds.Proposal, artifacts.FileInfo, error) {
	var counts artifacts.Counts
	ts := &thresholds.Proposal{}
	path := m.stage.Path(artifacts.ChunksFile)
	f, err := os.Create(path)
	if err != nil {
		return counts, nil, artifacts.FileInfo{}, fmt.Errorf("create %s: %w", path, err)
	}
	w, err := artifacts.NewChunkWriterTo(f, path, dims)
	if err != nil {
		return counts, nil, artifacts.FileInfo{}, err
	}
	type head struct {
		cf  *artifacts.ChunkFile
		cur *artifacts.Cursor
		row *schema.Chunk
	}
	heads := make([]*head, len(m.parts))
	for i, p := range m.parts {
		cf, err := artifacts.OpenChunksAs(p.dir, p.m)
		if err != nil {
			w.Abort()
			return counts, nil, artifacts.FileInfo{}, fmt.Errorf("part %s: %w", p.dir, err)
		}
		defer cf.Close()
		// Lean, without vectors, headers and the like, most of a row's
		// bytes: the writer copies most row groups whole and reads the rest
		// of the rows it encodes.
		cur := cf.CursorLean(ctx, tallied)
		defer cur.Close()
		h := &head{cf: cf, cur: cur}
		if h.row, err = cur.Next(); err != nil {
			w.Abort()
			return counts, nil, artifacts.FileInfo{}, fmt.Errorf("part %s: %w", p.dir, err)
		}
		heads[i] = h
	}
	var doc []schema.Chunk
	for n := 0; ; n++ {
		if n%rowGroupCheck == 0 && ctx.Err() != nil {
			w.Abort()
			return counts, nil, artifacts.FileInfo{}, ctx.Err()
		}
		at := -1
		for i, h := range heads {
			if h.row != nil && (at < 0 || h.row.DocPath < heads[at].row.DocPath) {
				at = i
			}
		}
		if at < 0 {
			break
		}
		// A document's rows come from one part, in order: written as the
		// part's own, so a row group of the part that the merged file
		// makes up whole is copied, not encoded again.
		h := heads[at]
		path, first := h.row.DocPath, h.cur.Read()-1
		doc = doc[:0]
		for h.row != nil && h.row.DocPath == path {
			doc = append(doc, *h.row)
			counts.Add(*h.row)
			if !tallied {
				sizes.Add(*h.row)
			}
			for _, th := range h.row.Thresholds {
				ts.Add(th)
			}
			if h.row, err = h.cur.Next(); err != nil {
				w.Abort()
				return counts, nil, artifacts.FileInfo{}, fmt.Errorf("part %s: %w", m.parts[at].dir, err)
			}
		}
		if err := w.WriteFrom(doc, h.cf, first); err != nil {
			w.Abort()
			return counts, nil, artifacts.FileInfo{}, fmt.Errorf("%w: part %s: %w", ErrMismatch, m.parts[at].dir, err)
		}
	}
	if err := w.Close(); err != nil {
		return counts, nil, artifacts.FileInfo{}, err
	}
	m.opt.Logger.Info("chunks merged", "rows", w.Rows(), "row groups copied", w.Copied())
	return counts, ts, w.Info(), nil
}

// rowGroupCheck is how often, in rows, a merge looks for a cancelled context.
const rowGroupCheck = 1024

// report is the merged run's report: the parts' reports merged
// (artifacts.Report.Merge), the rejects lists in corpus order (dt), a
// stage for the merge itself; Seal adds the diagnostics, sampled and
// counted from the merged diagnostics.jsonl.
func (m *merger) report(dt docTotals, start time.Time) artifacts.Report {
	first := m.parts[0]
	rep := artifacts.Report{RunID: m.runID, Skipped: first.report.Skipped,
		LangFrom: map[string]int{}, Markup: map[string]int{}}
	for _, p := range m.parts {
		rep.Merge(p.report)
	}
	rep.Stages = append(rep.Stages, artifacts.StageStat{Name: "merge", Items: len(m.parts), Seconds: time.Since(start).Seconds()})
	if models := rep.Models; models != nil {
		models.Rejects, models.RejectsTotal = dt.models.Rejects, dt.models.RejectsTotal
		models.Ungrounded, models.UngroundedTotal = dt.models.Ungrounded, dt.models.UngroundedTotal
		if models.Rejects == nil {
			models.Rejects = []artifacts.Reject{}
		}
		if models.Ungrounded == nil {
			models.Ungrounded = []artifacts.UngroundedThreshold{}
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep
}

// commonPrevious is the previous snapshot every part reused from, or nil
// when they did not all reuse the same one.
func commonPrevious(ps []part) *artifacts.PreviousRef {
	p0 := ps[0].m.Previous
	for _, p := range ps[1:] {
		if p.m.Previous == nil || p0 == nil || *p.m.Previous != *p0 {
			return nil
		}
	}
	return p0
}

// plausible refuses an empty merge, and one that would shrink the target's
// current snapshot more than publish.max_shrink allows (as a run does).
func (m *merger) plausible(docs int) error {
	if docs == 0 {
		return fmt.Errorf("%w: the parts hold no ingested document; nothing published", stages.ErrNothing)
	}
	cur := m.target.Current()
	if cur == "" || m.cfg.AllowShrink {
		return nil
	}
	cm, err := artifacts.ReadManifest(cur)
	if err != nil {
		return nil
	}
	if before := cm.Counts.Documents; float64(docs) < float64(before)*(1-m.cfg.Publish.MaxShrink) {
		return fmt.Errorf("%w from %d to %d documents, more than publish.max_shrink (%g) allows; nothing published: check the corpus", stages.ErrShrink, before, docs, m.cfg.Publish.MaxShrink)
	}
	return nil
}
