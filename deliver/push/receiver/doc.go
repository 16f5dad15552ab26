// Package receiver is the reference receiver of ingest push's contract
// (docs/push.md), for tests: an httptest server that checks every request
// against docs/push.schema.json and the contract's headers, stores the
// document versions it is sent as a knowledge service would, answers some
// requests 202 with a task to poll, keeps idempotency keys, and can be told
// to fail, stall, throttle (429 with Retry-After) or redirect. It counts
// what it saw (requests, bytes, replays, keys sent again after they were
// acknowledged) and dumps what it holds, to compare with a snapshot.
//
// It knows the contract only from the schema and the prose, never from
// package push: its types are its own, as a third party's would be.
package receiver
