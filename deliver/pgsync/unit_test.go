package pgsync_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/deliver/pgsync"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// TestSyncRefusesSnapshot checks what is refused before any connection:
// a snapshot that does not verify, a tenant that is not a UUID, bad names.
func TestSyncRefusesSnapshot(t *testing.T) {
	base := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stagesOptions())
	tampered := stagestest.Copy(t, base)
	f, err := os.OpenFile(filepath.Join(tampered, artifacts.ChunksFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x"))
	f.Close()
	part := stagestest.Copy(t, base)
	m, err := artifacts.ReadManifest(part)
	if err != nil {
		t.Fatal(err)
	}
	m.Shard = &artifacts.ShardInfo{Index: 1, Count: 4}
	if err := artifacts.WriteJSON(filepath.Join(part, artifacts.ManifestFile), m); err != nil {
		t.Fatal(err)
	}
	// A closed port: nothing here may get as far as connecting.
	const url = "postgres://kb:planted-pw@127.0.0.1:1/kb?connect_timeout=1"
	tests := []struct {
		name string
		opt  pgsync.Options
		want string
	}{
		{"does not verify", pgsync.Options{Snapshot: tampered, Tenant: tenantA}, "does not verify (files, parquet failed"},
		{"a part of a sharded run", pgsync.Options{Snapshot: part, Tenant: tenantA}, "is part 1 of 4 of a sharded run"},
		{"no tenant", pgsync.Options{Snapshot: base}, `its tenant_id "" is not a UUID: name the tenant with --tenant UUID`},
		{"tenant not a uuid", pgsync.Options{Snapshot: base, Tenant: "acme"}, `tenant "acme" is not a UUID`},
		{"bad table", pgsync.Options{Snapshot: base, Tenant: tenantA, Table: "kb; drop"}, `table "kb; drop": want a lower-case SQL name`},
		{"bad index", pgsync.Options{Snapshot: base, Tenant: tenantA, Index: "btree"}, `index "btree": want hnsw or ivfflat`},
		{"bad load", pgsync.Options{Snapshot: base, Tenant: tenantA, Load: "csv"}, `load "csv": want copy or insert`},
		{"no snapshot", pgsync.Options{Snapshot: filepath.Join(base, "nope"), Tenant: tenantA}, "no such file"},
		{"connection refused, password kept out", pgsync.Options{Snapshot: base, Tenant: tenantA}, "connect to postgres://kb:***@127.0.0.1:1/kb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.URL = url
			_, err := pgsync.Sync(context.Background(), tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error with %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "planted-pw") {
				t.Errorf("the password is in the error: %v", err)
			}
			_, perr := pgsync.PlanSync(context.Background(), tt.opt)
			if perr == nil || perr.Error() != err.Error() && !errors.Is(perr, err) && !strings.Contains(perr.Error(), tt.want) {
				t.Errorf("plan: got %v, want the sync's error %v", perr, err)
			}
		})
	}
}

func TestVersionID(t *testing.T) {
	a, b := pgsync.VersionID("aa"), pgsync.VersionID("ab")
	if a == b || a != pgsync.VersionID("aa") || a.Version() != 5 {
		t.Errorf("got %s, %s: want distinct, stable UUIDv5 ids", a, b)
	}
}

// TestSyncCancelled checks that a cancelled sync stops with the context's
// error, before any connection.
func TestSyncCancelled(t *testing.T) {
	base := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stagesOptions())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, run := range map[string]func() error{
		"sync": func() error {
			_, err := pgsync.Sync(ctx, pgsync.Options{Snapshot: base, URL: "postgres://127.0.0.1:1/kb", Tenant: tenantA})
			return err
		},
		"plan": func() error {
			_, err := pgsync.PlanSync(ctx, pgsync.Options{Snapshot: base, URL: "postgres://127.0.0.1:1/kb", Tenant: tenantA})
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			if err := run(); !errors.Is(err, context.Canceled) {
				t.Errorf("got %v, want context.Canceled", err)
			}
		})
	}
}
