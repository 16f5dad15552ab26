package stages

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/audit"
	"github.com/ocean-safety/ingest/artifacts/diagnostics"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/schema"
)

// An unchanged corpus — the same bytes under the same paths, the same
// config, header writer, embedder and ingest build as the previous snapshot —
// makes the same snapshot. The run then republishes the previous files
// instead of rebuilding them: the nightly run of a quiet corpus costs a read
// of the corpus, not a rewrite of the snapshot.

// InputLine feeds one file into an input fingerprint.
func InputLine(h hash.Hash, path, raw string) { fmt.Fprintf(h, "%s\x00%s\n", path, raw) }

// InputFingerprint closes an input fingerprint with the skipped files.
func InputFingerprint(h hash.Hash, skipped []schema.Skipped) string {
	for _, s := range skipped {
		fmt.Fprintf(h, "skipped\x00%s\x00%s\n", s.Path, s.Reason)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// unchangedInput reports whether this run would make the previous snapshot
// again: the same making (all but the corpus: build, tool version, config,
// header writer and embedder) and the same input bytes. It returns the input
// fingerprint it computed, for the republished manifest.
func (r *run) unchangedInput(ctx context.Context, paths []string, skipped []schema.Skipped) (string, bool, error) {
	if r.prev == nil || r.part != nil { // a part is always built: its documents list comes with it
		return "", false, nil
	}
	m := r.prev.Manifest
	_, diags := m.Files[artifacts.DiagnosticsFile]
	if !r.sameMaking(m) || m.InputFingerprint == "" || !diags {
		return "", false, nil
	}
	var sums *inputSums
	if r.prev.TakesDocuments() {
		sums = newInputSums(paths)
	}
	h, err := r.hashInputs(ctx, paths, sums.set)
	if err != nil {
		return "", false, err
	}
	r.inputs = sums
	input := InputFingerprint(h, skipped)
	return input, input == m.InputFingerprint, nil
}

// republish fills the staging folder from the previous snapshot for an
// unchanged corpus: the same chunks.parquet, thresholds.md and
// documents.jsonl (linked, or copied across file systems), a new report,
// audit lines and manifest.
func (r *run) republish(start time.Time, input string) (*Result, error) {
	prev := r.prev
	for _, name := range []string{artifacts.ChunksFile, artifacts.ThresholdsFile, artifacts.DocumentsFile} {
		if err := linkOrCopy(filepath.Join(prev.Dir, name), r.stage.Path(name)); err != nil {
			return nil, err
		}
	}
	old, err := artifacts.ReadReport(prev.Dir)
	if err != nil {
		return nil, fmt.Errorf("previous snapshot %s: %w", prev.Dir, err)
	}
	m := prev.Manifest
	rep := artifacts.Report{RunID: r.runID, Status: old.Status, Skipped: old.Skipped, SkippedUnlisted: old.SkippedUnlisted,
		Stages: []artifacts.StageStat{{Name: "unchanged", Items: m.Counts.Documents, Seconds: time.Since(start).Seconds()}}}
	rows, err := r.republishDiagnostics(old.SetupDiagnostics)
	if err != nil {
		return nil, err
	}
	rep.SetDiagnostics(r.diags.Digest(), len(r.setup))
	rep.Seconds = time.Since(start).Seconds()
	if err := artifacts.WriteJSON(r.stage.Path(artifacts.ReportFile), rep); err != nil {
		return nil, err
	}
	counts := verify.Recorded(m.Counts)
	counts["unchanged"] = 1
	if err := r.audit.Complete(counts); err != nil {
		return nil, fmt.Errorf("write %s: %w", artifacts.AuditFile, err)
	}
	files := map[string]artifacts.FileInfo{}
	for name, info := range m.Files {
		files[name] = info
	}
	for _, name := range []string{artifacts.DiagnosticsFile, artifacts.ReportFile, artifacts.AuditFile} {
		info, err := artifacts.Describe(r.stage.Path(name))
		if err != nil {
			return nil, err
		}
		if name == artifacts.DiagnosticsFile {
			info.Rows = rows
		}
		files[name] = info
	}
	m.Tool, m.RunID, m.CreatedAt, m.Files, m.InputFingerprint = artifacts.ToolName, r.runID, time.Now().UTC().Format(time.RFC3339), files, input
	m.Previous = r.previousRef()
	m.Calls = artifacts.Calls{HeadersReused: m.Counts.Chunks, VectorsReused: m.Counts.Chunks}
	m.Diagnostics = rep.DiagnosticCounts()
	if err := artifacts.WriteJSON(r.stage.Path(artifacts.ManifestFile), m); err != nil {
		return nil, err
	}
	status := StatusOK
	if m.Counts.Rejected > 0 || m.Diagnostics[string(schema.SeverityError)] > 0 {
		status = StatusPartial
	}
	return &Result{Status: status, Manifest: m, Report: rep}, nil
}

// republishDiagnostics writes the republished snapshot's diagnostics.jsonl:
// this run's own, in place of the previous run's (its first setup lines,
// which said the same of the same listing: carried over, they made it grow
// every unchanged night), then the previous run's documents' as they were,
// marked ignored or not by this run's config. It streams: nothing of the
// previous file stays in memory. It returns the diagnostics written.
func (r *run) republishDiagnostics(setup int) (int, error) {
	prev := r.prev
	var err error
	if r.diags, err = diagnostics.Create(r.stage.Path(artifacts.DiagnosticsFile)); err != nil {
		return 0, err
	}
	for _, d := range r.setup {
		r.diags.Write(d) // an error sticks: Close returns it
	}
	info := prev.Manifest.Files[artifacts.DiagnosticsFile]
	f, err := artifacts.OpenDeclared(filepath.Join(prev.Dir, artifacts.DiagnosticsFile), info.Bytes)
	if err != nil {
		return 0, fmt.Errorf("previous snapshot %s: %w", prev.Dir, err)
	}
	defer f.Close()
	in := diagnostics.NewReader(f)
	mark := func(d schema.Diagnostic) schema.Diagnostic {
		d.Ignored = r.cfg.Diagnostics.Ignores(d)
		return d
	}
	if err := errors.Join(diagnostics.Copy(nil, in, setup, nil), diagnostics.Copy(r.diags, in, info.Rows-setup, mark)); err != nil {
		return 0, fmt.Errorf("previous snapshot %s: %w", prev.Dir, err)
	}
	return r.diags.Close()
}

// republished verifies the republished snapshot. Its files are the
// previous snapshot's, but its manifest copies the previous one's counts,
// which nothing hashes: if they do not describe the rows, the snapshot is
// reported (previous-ignored) and the run starts over in a new staging
// folder and builds from the corpus, reusing the previous rows' headers and
// vectors, which are intact (their file matched its hash). Without this, a
// latest whose manifest lies failed every unchanged night's publish.
//
// It reads no row when it need not (issue 34, item 3): the previous
// snapshot's files were hashed as the run opened it, and a snapshot of this
// ingest records in its audit log what its rows add up to, which its
// manifest was checked against then; the republished manifest's counts are
// the ones checked. Reading the rows again doubled an unchanged night.
func (r *run) republished(ctx context.Context, prevDir string) (bool, error) {
	problems, err := r.stage.VerifyDeclared(ctx)
	if err != nil || len(problems) == 0 {
		return true, err
	}
	d := schema.Diagnostic{Path: prevDir, Severity: schema.SeverityWarning, Code: "previous-ignored",
		Message: "the previous snapshot's manifest does not describe its rows (" + strings.Join(problems, "; ") + "): rebuilt from the corpus"}
	r.setup = append(r.setup, d)
	r.rep.Diagnostic(d)
	r.audit.Abort()
	if err := r.stage.Abort(); err != nil {
		return false, err
	}
	if r.stage, err = r.target.Stage(); err != nil {
		return false, err
	}
	if r.audit, err = audit.New(r.stage.Path(artifacts.AuditFile), r.runID, prevDir); err != nil {
		return false, err
	}
	return false, nil
}

// linkOrCopy puts src at dst: a hard link (snapshot files are never
// written after they are published), or a copy where links cannot go.
func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil // an older snapshot without this file
	}
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return errors.Join(out.Sync(), out.Close())
}
