package pgsync

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	pgxvec "github.com/pgvector/pgvector-go/pgx"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/internal/redact"
)

// Options are one sync's settings, from the command line.
type Options struct {
	Snapshot string    // a snapshot folder, for PlanSync and Sync (a Destination is given its snapshot opened); it must verify
	URL      string    // postgres://… or key=value; its password is never printed
	Table    string    // default DefaultTable
	Tenant   string    // a UUID; "" takes the snapshot's tenant_id (PlanSync and Sync open it for this one)
	AppRole  string    // default DefaultAppRole
	Migrate  bool      // apply the migrations the table lacks (creating it)
	Index    IndexKind // "": keep the table's ANN index, or create HNSW
	Load     Load      // default DefaultLoad
}

func (o *Options) fill() {
	if o.Table == "" {
		o.Table = DefaultTable
	}
	if o.AppRole == "" {
		o.AppRole = DefaultAppRole
	}
	if o.Load == "" {
		o.Load = DefaultLoad
	}
}

// Report is what a sync did: its plan, and the rows each statement changed.
type Report struct {
	Plan
	Inserted int64   `json:"inserted"`
	Deleted  int64   `json:"deleted"`
	Seconds  float64 `json:"seconds"`
}

// deleteBatch bounds the ids one DELETE carries.
const deleteBatch = 5000

// plan says what sync would do, changing nothing: it reads the table in a
// read-only transaction. A missing table is planned as --migrate would
// create it; a table of another shape is an error, as for sync.
func (d *Destination) plan(ctx context.Context, ds *deliver.Snapshot) (*Plan, error) {
	opt := d.opt
	snap, t, conn, err := start(ctx, opt, ds)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	p := newPlan(opt, t, snap)
	p.migrate = opt.Migrate
	exists, err := tableExists(ctx, conn, t.Name)
	if err != nil {
		return nil, redactErr(err, opt.URL)
	}
	if !exists {
		p.CreateTable = true
		for _, m := range migrations {
			p.Migrations = append(p.Migrations, m.version)
		}
		p.Documents, p.Rows, _ = snap.diff(nil)
		p.Index = planIndex(nil, opt.Index, snap.ref.Rows)
		return p, nil
	}
	if err := Check(ctx, conn, t); err != nil {
		return nil, redactErr(err, opt.URL)
	}
	err = pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if _, err := p.read(ctx, tx, t, snap); err != nil {
			return err
		}
		_, err := p.planIndex(ctx, tx, t, opt.Index, p.Rows.Insert-p.Rows.Delete)
		return err
	})
	if err != nil {
		return nil, redactErr(err, opt.URL)
	}
	return p, nil
}

// sync makes the table hold the snapshot's rows for its tenant and source
// label, in one transaction: the rows it lacks are inserted, the rows the
// snapshot no longer has (old versions, removed documents) deleted, the
// ANN index kept as asked, and kb_sync_state records the snapshot. A
// reader sees the old rows or the new ones, never a mix; a failed sync
// changes nothing.
func (d *Destination) sync(ctx context.Context, ds *deliver.Snapshot) (*Report, error) {
	opt := d.opt
	began := time.Now()
	snap, t, conn, err := start(ctx, opt, ds)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	rep := &Report{Plan: *newPlan(opt, t, snap)}
	if err := rep.prepareTable(ctx, conn, t, opt.Migrate); err != nil {
		return nil, redactErr(err, opt.URL)
	}
	if err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error { return rep.apply(ctx, tx, t, snap, opt) }); err != nil {
		return nil, redactErr(err, opt.URL)
	}
	rep.Seconds = time.Since(began).Seconds()
	return rep, nil
}

// Validate checks the settings (defaults filled for those left empty):
// names, index, load, and the tenant, which must be a UUID if given.
func (o Options) Validate() error {
	o.fill()
	var errs []error
	if _, err := ParseIndex(string(o.Index)); err != nil {
		errs = append(errs, err)
	}
	if _, err := ParseLoad(string(o.Load)); err != nil {
		errs = append(errs, err)
	}
	if err := (Table{Name: o.Table, Dims: 1, AppRole: o.AppRole}).validate(); err != nil {
		errs = append(errs, err)
	}
	if _, err := uuid.Parse(o.Tenant); o.Tenant != "" && err != nil {
		errs = append(errs, fmt.Errorf("tenant %q is not a UUID", o.Tenant))
	}
	return errors.Join(errs...)
}

// start reads the snapshot's row ids and checks the table can hold its
// vectors before it connects (a snapshot the table cannot take fails at
// once), then opens one connection: a sync is one transaction and needs no
// pool. The options were checked by New.
func start(ctx context.Context, opt Options, ds *deliver.Snapshot) (*snapshot, Table, *pgx.Conn, error) {
	snap, err := readSnapshot(ctx, ds)
	if err != nil {
		return nil, Table{}, nil, err
	}
	t := Table{Name: opt.Table, Dims: snap.ref.Dims, AppRole: opt.AppRole}
	if err := t.validate(); err != nil {
		return nil, t, nil, err
	}
	conn, err := pgx.Connect(ctx, opt.URL)
	if err != nil {
		return nil, t, nil, redactErr(fmt.Errorf("connect to %s: %w", redact.URL(opt.URL), err), opt.URL)
	}
	return snap, t, conn, nil
}

func newPlan(opt Options, t Table, snap *snapshot) *Plan {
	return &Plan{Target: redact.URL(opt.URL), Table: t.Name, Tenant: snap.tenant.String(), SourceLabel: snap.label,
		Load: opt.Load, Snapshot: snap.ref, Migrations: []int{}}
}

// prepareTable migrates the table when asked, then checks it.
func (r *Report) prepareTable(ctx context.Context, conn *pgx.Conn, t Table, migrate bool) error {
	if migrate {
		existed, err := tableExists(ctx, conn, t.Name)
		if err != nil {
			return err
		}
		applied, err := Migrate(ctx, conn, t)
		if err != nil {
			return err
		}
		r.Migrations, r.CreateTable = applied, !existed
	}
	if err := Check(ctx, conn, t); err != nil {
		return err
	}
	// pgvector's type has no fixed OID: pgx learns it here, once the
	// extension is known to exist, to send vectors in binary.
	if err := pgxvec.RegisterTypes(ctx, conn); err != nil {
		return fmt.Errorf("register pgvector types: %w", err)
	}
	return nil
}

// read locks the tenant's source label against another sync, sets the
// tenant for row-level security and reads the last sync and the rows the
// table has; it fills the plan's counts and returns the rows to delete.
func (p *Plan) read(ctx context.Context, tx pgx.Tx, t Table, snap *snapshot) (*scopeRows, error) {
	key := "ingest-sync|" + t.Name + "|" + p.Tenant + "|" + p.SourceLabel
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, key); err != nil {
		return nil, err
	}
	// The sync's role may own the table without bypassing row-level
	// security (FORCE): it works as the tenant too, for this transaction.
	if _, err := tx.Exec(ctx, `SELECT set_config('auth.tenant_id', $1, true)`, p.Tenant); err != nil {
		return nil, err
	}
	var err error
	if p.Last, err = readState(ctx, tx, t, snap.tenant, snap.label); err != nil {
		return nil, err
	}
	have, err := readExisting(ctx, tx, t, snap.tenant, snap.label)
	if err != nil {
		return nil, err
	}
	var del []uuid.UUID
	p.Documents, p.Rows, del = snap.diff(have)
	return &scopeRows{have: have, del: del}, nil
}

// scopeRows are the table's rows of the sync's scope and those to delete.
type scopeRows struct {
	have map[uuid.UUID]existing
	del  []uuid.UUID
}

// planIndex decides the index change for the table as it will be after
// the sync: its row count now, plus pending (the rows the sync has yet to
// insert, less those it has yet to delete).
func (p *Plan) planIndex(ctx context.Context, q querier, t Table, want IndexKind, pending int) ([]annIndex, error) {
	have, err := readIndexes(ctx, q, t)
	if err != nil {
		return nil, err
	}
	n, err := tableRowCount(ctx, q, t)
	if err != nil {
		return nil, err
	}
	if n < 0 { // never analysed: this tenant's rows are a floor
		n, pending = p.Rows.Keep+p.Rows.Insert, 0
	}
	p.Index = planIndex(have, want, max(0, n+pending))
	return have, nil
}

// apply is the sync's transaction.
func (r *Report) apply(ctx context.Context, tx pgx.Tx, t Table, snap *snapshot, opt Options) error {
	tr, err := r.read(ctx, tx, t, snap)
	if err != nil {
		return err
	}
	// Deletes first: a regenerated document's new rows take the (tenant,
	// doc, version, chunk_order) of the rows they replace.
	for i := 0; i < len(tr.del); i += deleteBatch {
		ids := make([]pgtype.UUID, 0, deleteBatch)
		for _, id := range tr.del[i:min(i+deleteBatch, len(tr.del))] {
			ids = append(ids, pgUUID(id))
		}
		tag, err := tx.Exec(ctx, fmt.Sprintf(`DELETE FROM %s WHERE tenant_id = $1 AND chunk_id = ANY($2)`, ident(t.Name)),
			pgUUID(snap.tenant), ids)
		if err != nil {
			return fmt.Errorf("delete from %s: %w", t.Name, err)
		}
		r.Deleted += tag.RowsAffected()
	}
	ld := newLoader(opt.Load, t)
	n := 0
	err = snap.rows(ctx, tr.have, func(batch []row) error {
		vals := make([][]any, len(batch))
		for i, row := range batch {
			vals[i] = row.values(snap.tenant)
		}
		got, err := ld.load(ctx, tx, vals)
		if err != nil {
			return fmt.Errorf("%s batch %d into %s: %w", opt.Load, n, t.Name, err)
		}
		n++
		r.Inserted += got
		return nil
	})
	if err != nil {
		return err
	}
	if r.Inserted != int64(r.Rows.Insert) || r.Deleted != int64(r.Rows.Delete) {
		return errors.New("the table changed during the sync: rows inserted or deleted differ from the plan; nothing committed")
	}
	if r.Inserted+r.Deleted > 0 {
		// Fresh statistics for the planner and for ivfflat's row count.
		if _, err := tx.Exec(ctx, "ANALYZE "+ident(t.Name)); err != nil {
			return fmt.Errorf("analyze %s: %w", t.Name, err)
		}
	}
	have, err := r.planIndex(ctx, tx, t, opt.Index, 0) // ANALYZE has counted the changes
	if err != nil {
		return err
	}
	if err := applyIndex(ctx, tx, t, have, r.Index); err != nil {
		return err
	}
	return writeState(ctx, tx, &r.Plan, snap.tenant, r.Inserted, r.Deleted)
}
