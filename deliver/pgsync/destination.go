package pgsync

import (
	"context"

	"github.com/ocean-safety/ingest/deliver"
)

// Destination is a pgvector table as a deliver.Destination: Plan is a
// sync's plan, Deliver the sync, of a snapshot opened for delivery.
type Destination struct{ opt Options }

var _ deliver.Destination = (*Destination)(nil)

// New checks the options (defaults filled for those left empty) and
// connects to nothing: a bad name, index, load or tenant fails here.
func New(opt Options) (*Destination, error) {
	opt.fill()
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	return &Destination{opt: opt}, nil
}

// Plan says what Deliver would do, changing nothing (a *Plan).
func (d *Destination) Plan(ctx context.Context, s *deliver.Snapshot) (deliver.Report, error) {
	p, err := d.plan(ctx, s)
	if err != nil {
		return nil, err // a nil Report, not a nil *Plan in one
	}
	return p, nil
}

// Deliver syncs the table with the snapshot (a *Report); a failed sync
// changes nothing and reports nothing.
func (d *Destination) Deliver(ctx context.Context, s *deliver.Snapshot) (deliver.Report, error) {
	rep, err := d.sync(ctx, s)
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// PlanSync is New, deliver.Open of opt.Snapshot for opt.Tenant and Plan,
// in one call.
func PlanSync(ctx context.Context, opt Options) (*Plan, error) {
	d, s, err := open(ctx, opt)
	if err != nil {
		return nil, err
	}
	return d.plan(ctx, s)
}

// Sync is New, deliver.Open of opt.Snapshot for opt.Tenant and Deliver,
// in one call.
func Sync(ctx context.Context, opt Options) (*Report, error) {
	d, s, err := open(ctx, opt)
	if err != nil {
		return nil, err
	}
	return d.sync(ctx, s)
}

// open checks the options before it reads the snapshot: a bad flag fails
// at once.
func open(ctx context.Context, opt Options) (*Destination, *deliver.Snapshot, error) {
	d, err := New(opt)
	if err != nil {
		return nil, nil, err
	}
	s, err := deliver.Open(ctx, opt.Snapshot, opt.Tenant, nil)
	if err != nil {
		return nil, nil, err
	}
	return d, s, nil
}
