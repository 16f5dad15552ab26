package push

import (
	"context"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/deliver/push/pushconf"
	"github.com/ocean-safety/ingest/schema"
)

// Destination is an ingest API as a deliver.Destination: Plan is a push's
// plan (--plan), Deliver the push, of a snapshot opened for delivery.
type Destination struct{ opt Options }

var _ deliver.Destination = (*Destination)(nil)

// New checks the options and contacts nothing: every bad setting is a
// *schema.SettingError naming its key, and so is a token that would cross
// the network over plain http.
func New(opt Options) (*Destination, error) {
	set := opt.Settings
	if err := set.Validate(); err != nil {
		return nil, err
	}
	if set.To == "" {
		return nil, schema.Setting("push.to", "no destination: give --to https://HOST/PATH")
	}
	to, _ := pushconf.ParseTarget(set.To)
	creds := opt.Token != "" || len(opt.Headers) > 0 || to.User != nil
	if to.Scheme == "http" && creds && !pushconf.Loopback(to) && !set.AllowHTTP {
		return nil, schema.Setting("push.to", "%s is plain http: the token would cross the network readable; use https (or push.allow_http: true)", redactURL(set.To))
	}
	return &Destination{opt: opt}, nil
}

// Plan says what Deliver would send and delete, sending nothing (a *Plan).
func (d *Destination) Plan(ctx context.Context, s *deliver.Snapshot) (deliver.Report, error) {
	p, err := d.plan(ctx, s)
	if err != nil {
		return nil, err // a nil Report, not a nil *Plan in one
	}
	return p, nil
}

// Deliver pushes the snapshot (a *Report). A push that failed once it
// began returns its report with the error: the requests it sent.
func (d *Destination) Deliver(ctx context.Context, s *deliver.Snapshot) (deliver.Report, error) {
	rep, err := d.push(ctx, s)
	if rep == nil {
		return nil, err
	}
	return rep, err
}

// PlanPush is New, deliver.Open of opt.Snapshot for the settings' tenant
// and Plan, in one call.
func PlanPush(ctx context.Context, opt Options) (*Plan, error) {
	d, s, err := open(ctx, opt)
	if err != nil {
		return nil, err
	}
	return d.plan(ctx, s)
}

// Push is New, deliver.Open of opt.Snapshot for the settings' tenant and
// Deliver, in one call: a push that began returns its report, failed or
// not.
func Push(ctx context.Context, opt Options) (*Report, error) {
	d, s, err := open(ctx, opt)
	if err != nil {
		return nil, err
	}
	return d.push(ctx, s)
}

// open checks the options before it reads the snapshot: a bad setting
// fails at once.
func open(ctx context.Context, opt Options) (*Destination, *deliver.Snapshot, error) {
	d, err := New(opt)
	if err != nil {
		return nil, nil, err
	}
	s, err := deliver.Open(ctx, opt.Snapshot, opt.Settings.Tenant, nil)
	if err != nil {
		return nil, nil, err
	}
	return d, s, nil
}
