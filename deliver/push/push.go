package push

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/deliver/push/pushconf"
	"github.com/ocean-safety/ingest/schema"
)

// Options are one push's settings.
type Options struct {
	Snapshot string            // a snapshot folder, for PlanPush and Push (a Destination is given its snapshot opened); it must verify
	Settings pushconf.Settings // To must be set
	Token    string            // the bearer token ($INGEST_PUSH_TOKEN); "" for none
	Headers  map[string]string // a header file's (ReadHeaderFile)
	// StateRoot is where the state folder goes when Settings.State is "":
	// StateRoot/push-<destination, tenant and source label hashed>.
	StateRoot string
	Full      bool   // send every document again
	Agent     string // User-Agent, e.g. ingest/1.2.0

	sleep func(ctx context.Context, d time.Duration) error // tests: waits recorded, not slept
}

// plan says what push would send and delete, sending nothing.
func (d *Destination) plan(ctx context.Context, snap *deliver.Snapshot) (*Plan, error) {
	p, err := start(d.opt, snap, true)
	if err != nil {
		return nil, err
	}
	if err := p.run(ctx); err != nil {
		return nil, err
	}
	return &p.plan, nil
}

// push makes the destination hold the snapshot's document versions and no
// other version of its tenant and source label: it sends what the
// destination lacks, deletes what the snapshot no longer has, and records
// the result in the state folder. A push killed at any point resumes where
// it stopped when run again. A push that began returns its report, failed
// or not.
func (d *Destination) push(ctx context.Context, snap *deliver.Snapshot) (*Report, error) {
	began := time.Now()
	p, err := start(d.opt, snap, false)
	if err != nil {
		return nil, err
	}
	defer p.f.close()
	p.audit.write(AuditRecord{Kind: AuditStarted, Destination: p.plan.Destination, Tenant: p.plan.Tenant,
		SourceLabel: p.plan.SourceLabel, Snapshot: p.plan.Snapshot.Name})
	err = p.run(ctx)
	if err == nil {
		err = p.commit()
	}
	rep := &Report{Plan: p.plan, Sent: p.sent, Seconds: time.Since(began).Seconds(), TraceID: p.c.trace}
	fin := AuditRecord{Kind: AuditFinished, Status: "ok", Sent: &rep.Sent, Seconds: rep.Seconds, Snapshot: p.plan.Snapshot.Name}
	if err != nil {
		fin.Status, fin.Error = "failed", err.Error()
	}
	p.audit.write(fin)
	if cerr := p.audit.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return rep, fmt.Errorf("push to %s: %w", p.plan.Destination, err)
	}
	return rep, nil
}

// pusher is one push: what it read, where it writes, what it counts.
type pusher struct {
	opt   Options
	set   pushconf.Settings
	dry   bool
	snap  *deliver.Snapshot
	c     *client
	f     *folder
	audit *audit
	st    *State
	h     *holdings // what the destination holds, as acknowledgements come in (the sink's, under the runner's lock)
	base  *holdings // what it held when the push began: what the pass over the snapshot decides by
	env   envelope
	model wireModels
	plan  Plan
	sent  counts
	seq   int
	docs  map[string]string // the snapshot's documents: doc id → version id
	paths map[string]string // doc id → doc path
}

// start opens the state folder (locked, unless dry) and reads what the
// destination holds; New has checked the options.
func start(opt Options, snap *deliver.Snapshot, dry bool) (*pusher, error) {
	set := opt.Settings
	to, _ := pushconf.ParseTarget(set.To)
	p := &pusher{opt: opt, set: set, dry: dry, snap: snap, docs: map[string]string{}, paths: map[string]string{}}
	p.plan = Plan{Destination: redactURL(set.To), Tenant: snap.Tenant.String(), SourceLabel: snap.Label, Snapshot: snap.Ref, Full: opt.Full}
	var err error
	if p.plan.State, err = p.stateDir(); err != nil {
		return nil, err
	}
	p.env = envelope{Contract: Contract, TenantID: p.plan.Tenant, SourceLabel: snap.Label, Snapshot: snap.Ref.Name}
	p.model = wireModels{HeaderWriter: snap.Manifest.HeaderWriter, Embedder: snap.Manifest.Embedder.Name, Dims: snap.Manifest.Embedder.Dims}
	headers := http.Header{}
	for k, v := range opt.Headers {
		headers.Set(k, v)
	}
	if opt.Token != "" {
		headers.Set("Authorization", "Bearer "+opt.Token)
	}
	p.c = newClient(to, set, headers, secretsOf(set.To, opt.Headers, opt.Token), opt.Agent)
	if opt.sleep != nil {
		p.c.sleep = opt.sleep
	}
	if opt.Full {
		p.env.Resend = p.c.trace
	}
	if err := p.openState(); err != nil {
		return nil, err
	}
	return p, nil
}

// stateDir is the state folder: Settings.State, else one per destination,
// tenant and source label under StateRoot.
func (p *pusher) stateDir() (string, error) {
	if p.set.State != "" {
		return p.set.State, nil
	}
	if p.opt.StateRoot == "" {
		return "", schema.Setting("push.state", "no state folder: give --state DIR")
	}
	sum := sha256.Sum256([]byte(p.plan.Destination + "\x00" + p.plan.Tenant + "\x00" + p.plan.SourceLabel))
	return filepath.Join(p.opt.StateRoot, "push-"+hex.EncodeToString(sum[:6])), nil
}

// openState locks the state folder (a plan only reads it) and reads the
// state and the journal of a push that did not finish.
func (p *pusher) openState() error {
	var err error
	if p.dry {
		p.f = &folder{dir: p.plan.State}
	} else if p.f, err = openFolder(p.plan.State); err != nil {
		return err
	}
	fail := func(err error) error {
		if !p.dry {
			p.f.close()
		}
		return err
	}
	var warn string
	if p.st, warn, err = p.f.readState(p.dry); err != nil {
		return fail(err)
	}
	if warn != "" {
		p.plan.Warnings = append(p.plan.Warnings, warn)
	}
	if s := p.st; s != nil {
		if s.Destination != p.plan.Destination || s.Tenant != p.plan.Tenant || s.SourceLabel != p.plan.SourceLabel {
			return fail(fmt.Errorf("push state %s is of %s (tenant %s, source %s), not of this push: give another --state",
				p.plan.State, s.Destination, s.Tenant, s.SourceLabel))
		}
		p.plan.Last = &LastPush{Snapshot: s.Snapshot.Name, PushedAt: s.PushedAt, Documents: len(s.Documents)}
	}
	if err := p.replay(); err != nil {
		return fail(err)
	}
	if !p.dry {
		if p.audit, err = openAudit(p.plan.State, p.c.trace); err != nil {
			return fail(err)
		}
	}
	return nil
}

// replay reads the journal (its warnings into the plan) and applies it to
// the state: what the destination holds as the push begins.
func (p *pusher) replay() error {
	lines, warns, err := p.f.readJournal()
	if err != nil {
		return err
	}
	p.plan.Warnings = append(p.plan.Warnings, warns...)
	p.h, p.base = replay(p.st, lines), replay(p.st, lines)
	return nil
}

// run is the push: the tasks an unfinished push was given, polled first
// (a task the destination no longer knows is journaled lost, and its
// documents are then sent again as any the destination lacks), the
// document versions the destination lacks, then the deletes.
func (p *pusher) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stage := func(fill func(submit func(*batch)) error) error {
		if p.dry {
			return fill(func(*batch) {})
		}
		r := newRunner(ctx, p.c, p)
		r.forgive = p.opt.Full
		err := fill(r.submit)
		if err != nil {
			cancel()
		}
		return errors.Join(err, r.wait())
	}
	if len(p.base.pending) > 0 {
		err := stage(func(submit func(*batch)) error {
			for _, l := range p.base.pending {
				p.seq++
				p.plan.Resume.Tasks++
				submit(&batch{seq: p.seq, op: l.Op, parts: l.Parts, dels: l.Deletes, body: body{key: l.Key}, task: l.Task, span: randomHex(8)})
			}
			return nil
		})
		if err != nil {
			return err
		}
		if !p.dry {
			if err := p.replay(); err != nil { // the journal now says which tasks were done and which lost
				return err
			}
		}
	}
	if err := stage(func(submit func(*batch)) error { return p.upserts(ctx, submit) }); err != nil {
		return err
	}
	return stage(p.deletes)
}

// upserts reads the snapshot a document at a time and submits the parts
// of the versions the destination lacks, packed into requests.
func (p *pusher) upserts(ctx context.Context, submit func(*batch)) error {
	pk := &packer{maxChunks: p.set.BatchChunks, maxBytes: p.set.MaxBytes, emit: func(parts []part) error {
		b, err := p.env.upsertBatch(parts)
		if err != nil {
			return err
		}
		p.seq++
		bt := &batch{seq: p.seq, op: opUpsert, body: b, span: randomHex(8)}
		for _, pt := range parts {
			bt.parts = append(bt.parts, pt.ref())
		}
		p.plan.Requests.Upsert++
		p.plan.Bytes += int64(len(b.gz))
		submit(bt)
		return nil
	}}
	err := p.snap.Documents(ctx, func(rows []schema.Chunk) error {
		d, err := encodeDoc(rows, p.model)
		if err != nil {
			return err
		}
		p.docs[d.ctx.DocID], p.paths[d.ctx.DocID] = d.ctx.VersionID, d.ctx.DocPath
		if !p.classify(d) {
			return nil
		}
		parts, err := splitParts(d, p.set.BatchChunks, p.set.MaxBytes)
		if err != nil {
			return err
		}
		for _, pt := range parts {
			if k := pt.ref().key(); p.base.acked[k].DocID != "" || p.base.inTask[k] {
				p.plan.Resume.Skipped++
				continue
			}
			p.plan.Chunks += pt.chunks()
			if err := pk.add(pt); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return pk.flush()
}

// classify counts a snapshot document against what the destination holds
// and says whether to send it.
func (p *pusher) classify(d *docVersion) bool {
	held := p.base.versions[d.ctx.DocID]
	v, ok := held[d.ctx.VersionID]
	switch {
	case len(held) == 0:
		p.plan.Documents.Added++
	case !ok:
		p.plan.Documents.Changed++
	case v.Digest != d.digest:
		p.plan.Documents.Regenerated++
	case p.opt.Full && !p.base.journaled[partKey{doc: d.ctx.DocID, version: d.ctx.VersionID, digest: d.digest}]:
		p.plan.Documents.Resent++
	default:
		p.plan.Documents.Unchanged++
		return false
	}
	return true
}

// deletes submits the deletes of the versions the destination holds that
// the snapshot does not: every version of a removed document, and the old
// versions of a changed one (whose new version is whole by now). It runs
// after the upserts' runner has finished, so it reads p.h alone.
func (p *pusher) deletes(submit func(*batch)) error {
	var dels []deleteRef
	removed := map[string]bool{}
	for doc, vs := range p.h.versions {
		cur, inSnap := p.docs[doc]
		for v, x := range vs {
			if v == cur || p.h.delTask[[2]string{doc, v}] {
				continue
			}
			d := deleteRef{DocID: doc, VersionID: v, DocPath: x.DocPath, Reason: ReasonSuperseded, Chunks: x.Chunks}
			if !inSnap {
				d.Reason = ReasonRemoved
				removed[doc] = true
				p.plan.Deletes.Removed++
			} else {
				p.plan.Deletes.Superseded++
			}
			dels = append(dels, d)
		}
	}
	p.plan.Documents.Removed = len(removed)
	slices.SortFunc(dels, func(a, b deleteRef) int {
		return strings.Compare(a.DocPath+"\x00"+a.VersionID, b.DocPath+"\x00"+b.VersionID)
	})
	for i := 0; i < len(dels); i += p.set.DeleteBatch {
		chunk := dels[i:min(i+p.set.DeleteBatch, len(dels))]
		b, err := p.env.deleteBatch(chunk)
		if err != nil {
			return err
		}
		p.seq++
		p.plan.Requests.Delete++
		p.plan.Bytes += int64(len(b.gz))
		submit(&batch{seq: p.seq, op: opDelete, dels: chunk, body: b, span: randomHex(8)})
	}
	return nil
}

// commit checks the destination now holds exactly the snapshot's versions
// and records it as the state.
func (p *pusher) commit() error {
	for doc, vs := range p.h.versions {
		if _, ok := vs[p.docs[doc]]; !ok || len(vs) != 1 {
			return fmt.Errorf("%s: the push ended with %d versions held, not the snapshot's one: run it again", p.paths[doc], len(vs))
		}
	}
	if len(p.h.versions) != len(p.docs) {
		return fmt.Errorf("the push ended with %d documents held, the snapshot has %d: run it again", len(p.h.versions), len(p.docs))
	}
	st := &State{Contract: Contract, Destination: p.plan.Destination, Tenant: p.plan.Tenant, SourceLabel: p.plan.SourceLabel,
		Snapshot: p.plan.Snapshot, PushedAt: time.Now().UTC().Format(time.RFC3339), Documents: p.h.versions}
	if err := p.audit.sync(); err != nil {
		return err
	}
	return p.f.commit(st)
}

// The runner's sink: each batch's outcome, one at a time.

func (p *pusher) accepted(b *batch, task string, n counts) error {
	p.sent.add(n)
	return p.f.appendJournal(journalLine{Key: b.body.key, Event: eventAccepted, Task: task, Op: b.op, Parts: b.parts, Deletes: b.dels})
}

func (p *pusher) done(b *batch, n counts) error {
	p.sent.add(n)
	l := journalLine{Key: b.body.key, Event: eventDone, Op: b.op, Parts: b.parts, Deletes: b.dels}
	tp := p.c.traceparent(b.span)
	for _, v := range p.h.apply(l) {
		p.audit.write(AuditRecord{Kind: AuditPushed, Traceparent: tp, DocID: v.DocID, VersionID: v.VersionID, DocPath: v.DocPath,
			ChunkCount: v.Chunks, ChunkSHA256: v.Hashes})
	}
	for _, d := range b.dels {
		p.audit.write(AuditRecord{Kind: AuditDeleted, Traceparent: tp, DocID: d.DocID, VersionID: d.VersionID, DocPath: d.DocPath,
			Reason: d.Reason, ChunkCount: d.Chunks})
	}
	return p.f.appendJournal(l)
}

// lost journals a task the destination no longer knows: no longer
// pending, its request is sent again.
func (p *pusher) lost(b *batch, n counts) error {
	p.sent.add(n)
	p.plan.Resume.Lost++
	return p.f.appendJournal(journalLine{Key: b.body.key, Event: eventLost, Op: b.op})
}

func (p *pusher) failed(b *batch, n counts) error {
	p.sent.add(n)
	return p.f.appendJournal(journalLine{Key: b.body.key, Event: eventFailed, Op: b.op})
}

func (p *pusher) ended(b *batch, n counts) { p.sent.add(n) }

var _ sink = (*pusher)(nil)
