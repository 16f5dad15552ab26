// Package pgsync keeps a PostgreSQL table with pgvector in step with a
// snapshot: the table of KB-005 (one row per chunk, tenant-isolated by
// row-level security, append-only for the application role), created and
// checked by versioned migrations, and filled by one transaction per sync
// that inserts the snapshot's rows the table lacks and deletes the tenant's
// rows of the same source label that the snapshot no longer has (old
// versions, removed documents). A row's id is a hash of its tenant and of
// every value it holds, so a row is never updated: it is there, or it is
// replaced. A kb_sync_state row per (table, tenant, source label) records
// the snapshot synced, so a plan can say what a sync would do.
//
// It reads snapshots through artifacts and nothing else of the pipeline;
// pgx and pgvector stay inside this package.
package pgsync
