package bucket

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/ocean-safety/ingest/artifacts"
)

// leaseFile is the lease of a publish prefix: at most one writer at a time.
// It is created with a conditional write (IfNotExist), which S3, GCS, Azure
// and the file store honour; on a store that does not, two runs could both
// believe they hold it, and the README says so.
const leaseFile = ".lease"

// lease is what the lease object holds.
type lease struct {
	artifacts.Holder
	Expires string `json:"expires"` // RFC 3339: after it, the next run may take the lease over
}

// leaseRetry is how often a waiting run tries again.
const leaseRetry = time.Second

// Acquire takes the prefix's lease, trying for up to wait, and returns the
// function that gives it back. A live lease of another run is an
// *artifacts.LockedError naming its holder; one past its expiry (its run
// crashed) is taken over.
func (s *Store) Acquire(ctx context.Context, wait time.Duration) (func() error, error) {
	host, _ := os.Hostname()
	now := time.Now().UTC()
	mine := lease{Holder: artifacts.Holder{PID: os.Getpid(), Host: host, Started: now.Format(time.RFC3339)}, Expires: now.Add(leaseTTL).Format(time.RFC3339)}
	body, _ := json.Marshal(mine)
	deadline := time.Now().Add(wait)
	for {
		err := s.b.WriteAll(ctx, leaseFile, body, &blob.WriterOptions{IfNotExist: true})
		if err == nil {
			return func() error { return s.release(context.WithoutCancel(ctx), body) }, nil
		}
		if gcerrors.Code(err) != gcerrors.FailedPrecondition {
			return nil, err
		}
		var held lease
		b, rerr := s.b.ReadAll(ctx, leaseFile)
		if rerr == nil && json.Unmarshal(b, &held) == nil {
			if exp, perr := time.Parse(time.RFC3339, held.Expires); perr == nil && time.Now().After(exp) {
				_ = s.b.Delete(ctx, leaseFile) // its run is gone: take it over
				continue
			}
		}
		if time.Now().After(deadline) {
			return nil, &artifacts.LockedError{Target: s.name, Holder: held.Holder}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(leaseRetry):
		}
	}
}

// release deletes the lease if it is still ours.
func (s *Store) release(ctx context.Context, body []byte) error {
	b, err := s.b.ReadAll(ctx, leaseFile)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil
	}
	if err != nil {
		return err
	}
	if string(b) != string(body) {
		return errors.New(s.name + ": the lease was taken over by another run")
	}
	return s.b.Delete(ctx, leaseFile)
}
