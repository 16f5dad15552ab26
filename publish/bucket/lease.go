package bucket

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ocean-safety/ingest/publish"
)

// leaseFile is the lease of a publish prefix: at most one writer at a time.
// It is created with a conditional write (IfNotExist), which S3, GCS, Azure
// and the file store honour; on a store that does not, two runs could both
// believe they hold it, and the README says so.
const leaseFile = ".lease"

// DefaultLeaseTTL is how long a lease holds unless its run renews it. A
// live run renews it every third of that, so a run of any length keeps it;
// a killed run's lease stops others for at most this long, and not at all
// on its own host, where a holder whose process is gone is taken over at
// once. Ten minutes: a nightly job retried after a crash starts soon after.
const DefaultLeaseTTL = 10 * time.Minute

// lease is what the lease object holds.
type lease struct {
	publish.Holder
	Expires string `json:"expires"` // RFC 3339: after it, the next run may take the lease over
}

// leaseRetry is how often a waiting run tries again.
const leaseRetry = time.Second

// leaseCallTimeout bounds one renewal or check of the lease.
const leaseCallTimeout = 30 * time.Second

func (s *Store) ttl() time.Duration {
	if s.LeaseTTL > 0 {
		return s.LeaseTTL
	}
	return DefaultLeaseTTL
}

// Acquire takes the prefix's lease, trying for up to wait, and returns the
// function that gives it back; the lease is renewed while it is held. A
// live lease of another run is an *publish.LockedError naming its holder.
// One whose run is over is taken over: its expiry has passed, or its holder
// ran on this host and its process is gone (killed, crashed). An expiry
// further ahead than the TTL (and leaseSkew) is read as the TTL from the
// lease's writing, so no clock and no hand can hold a prefix for good. A
// lease that cannot be read (empty, not JSON) is named as such, and taken over once
// the TTL has passed since it was written.
func (s *Store) Acquire(ctx context.Context, wait time.Duration) (func() error, error) {
	deadline := time.Now().Add(wait)
	me := publish.Self()
	for {
		body := s.newLease(me)
		err := writeAll(ctx, s.b, leaseFile, body, PutOptions{IfNotExist: true, ContentType: "application/json"})
		if err == nil {
			h := &held{s: s, me: me, body: body}
			h.arm()
			s.lease = h
			return h.release, nil
		}
		if !isExist(err) {
			return nil, fmt.Errorf("%s: write %s: %w", s, leaseFile, err)
		}
		locked, err := s.readLease(ctx)
		if err != nil {
			return nil, err
		}
		if locked == nil { // over: take it
			if err := s.b.Delete(ctx, leaseFile); err != nil {
				return nil, fmt.Errorf("%s: take over %s: %w", s, leaseFile, err)
			}
			continue
		}
		if time.Now().After(deadline) {
			return nil, locked
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(leaseRetry):
		}
	}
}

// newLease is the lease object of holder me, expiring a TTL from now.
func (s *Store) newLease(me publish.Holder) []byte {
	b, _ := json.Marshal(lease{Holder: me, Expires: time.Now().UTC().Add(s.ttl()).Format(time.RFC3339Nano)})
	return b
}

// readLease reads the lease another run holds and returns it as an
// *publish.LockedError, or nil when that run is over and the lease may be
// taken over (or it is gone already).
func (s *Store) readLease(ctx context.Context) (*publish.LockedError, error) {
	b, err := readAll(ctx, s.b, leaseFile)
	if isNotExist(err) {
		return nil, nil // given back meanwhile
	}
	if err != nil {
		return nil, fmt.Errorf("%s: read %s: %w", s, leaseFile, err)
	}
	var l lease
	exp, perr := time.Time{}, json.Unmarshal(b, &l)
	if perr == nil {
		exp, perr = time.Parse(time.RFC3339, l.Expires)
	}
	if perr != nil || l.PID <= 0 {
		a, err := s.b.Stat(ctx, leaseFile)
		if isNotExist(err) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: read %s: %w", s, leaseFile, err)
		}
		until := a.ModTime.Add(s.ttl())
		if time.Now().After(until) {
			return nil, nil
		}
		return &publish.LockedError{Target: s.name, Note: fmt.Sprintf("its lease %s cannot be read (%d bytes, written %s, not a lease this tool writes); it is taken over after %s, or delete %s",
			leaseFile, len(b), a.ModTime.UTC().Format(time.RFC3339), until.UTC().Format(time.RFC3339), leaseFile)}, nil
	}
	if l.Holder.Gone() {
		return nil, nil
	}
	note := "its lease expires at " + l.Expires + " unless that run renews it"
	if limit := time.Now().Add(s.ttl() + leaseSkew(s.ttl())); exp.After(limit) {
		// Further ahead than any run of this tool writes (a wrong clock, a
		// hand-written lease): believed as far as the TTL from when the store
		// says it was written, by the store's clock, not the writer's.
		a, err := s.b.Stat(ctx, leaseFile)
		if isNotExist(err) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: read %s: %w", s, leaseFile, err)
		}
		exp = a.ModTime.Add(s.ttl() + leaseSkew(s.ttl()))
		note = fmt.Sprintf("its lease says it expires at %s, further ahead than its TTL (%s) allows: taken as expiring at %s, its TTL after it was written (%s)",
			l.Expires, s.ttl(), exp.UTC().Format(time.RFC3339), a.ModTime.UTC().Format(time.RFC3339))
	}
	if time.Now().After(exp) {
		return nil, nil
	}
	return &publish.LockedError{Target: s.name, Holder: l.Holder, Note: note}, nil
}

// leaseSkew is how far ahead of this host's clock a lease's writer's clock
// may run: its expiry is believed up to a TTL and this much from its
// writing. A fifth of the TTL (two minutes for the default): clocks kept by
// NTP are within milliseconds, and a test's short TTL gets a short allowance.
func leaseSkew(ttl time.Duration) time.Duration { return ttl / 5 }

// held is a lease this process holds: renewed every third of its TTL by a
// timer until released. Renewal is the one place outside the runner where
// a goroutine runs (the timer's): a lease must outlive any one call.
type held struct {
	s       *Store
	me      publish.Holder
	mu      sync.Mutex
	body    []byte // what the lease object holds while it is ours
	timer   *time.Timer
	lost    error // the lease was taken over or removed: publishing must not go on
	stopped bool
}

func (h *held) arm() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.timer = time.AfterFunc(h.s.ttl()/3, h.renew)
}

// renew writes the lease again with a later expiry, if it is still ours.
func (h *held) renew() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped || h.lost != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
	defer cancel()
	if h.lost = h.mine(ctx); h.lost != nil {
		return
	}
	body := h.s.newLease(h.me)
	if err := writeAll(ctx, h.s.b, leaseFile, body, PutOptions{ContentType: "application/json"}); err == nil {
		h.body = body
	} // else: tried again at the next tick, long before the lease expires
	h.timer.Reset(h.s.ttl() / 3)
}

// mine checks the lease object is still this run's. Call with mu held.
func (h *held) mine(ctx context.Context) error {
	b, err := readAll(ctx, h.s.b, leaseFile)
	switch {
	case isNotExist(err):
		return fmt.Errorf("%s: the lease %s was removed while this run held it", h.s, leaseFile)
	case err != nil:
		return nil // cannot tell now: a later check will
	case string(b) != string(h.body):
		var l lease
		if json.Unmarshal(b, &l) == nil && l.PID > 0 {
			return fmt.Errorf("%s: the lease was taken over by another run (%s)", h.s, l.Holder)
		}
		return fmt.Errorf("%s: the lease %s was replaced while this run held it", h.s, leaseFile)
	}
	return nil
}

// check returns an error unless the lease is still this run's: what a
// publish asks before it points latest.json at its snapshot.
func (h *held) check(ctx context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lost != nil {
		return h.lost
	}
	h.lost = h.mine(ctx)
	return h.lost
}

// release stops the renewal and deletes the lease if it is still ours.
func (h *held) release() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return nil
	}
	h.stopped = true
	h.timer.Stop()
	if h.s.lease == h {
		h.s.lease = nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
	defer cancel()
	b, err := readAll(ctx, h.s.b, leaseFile)
	if isNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if string(b) != string(h.body) {
		return errors.New(h.s.name + ": the lease was taken over by another run")
	}
	return h.s.b.Delete(ctx, leaseFile)
}

// holding returns an error unless this store holds no lease (a test's
// publish) or still holds its own.
func (s *Store) holding(ctx context.Context) error {
	if s.lease == nil {
		return nil
	}
	return s.lease.check(ctx)
}
