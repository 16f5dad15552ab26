package place

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/bucket"
)

// ErrRefused marks a place a command cannot use as its command line says
// (a parts folder that holds a snapshot, a folder that cannot be listed):
// the user's to change, named in the message.
var ErrRefused = errors.New("place refused")

// refused is an error of ErrRefused with its own message.
type refused struct{ error }

func (refused) Is(target error) bool { return target == ErrRefused }

func refuse(format string, a ...any) error { return refused{fmt.Errorf(format, a...)} }

// where is a place of one kind.
type where interface {
	// join adds a name to the place's path.
	join(name string) string
	// shown is the place as messages show it.
	shown() string
	// target is the target of a run publishing here.
	target(ctx context.Context, keep int, prev string, work Work) (publish.Target, func(), error)
	// snapshot makes the snapshot the place names a local folder.
	snapshot(ctx context.Context) (dir string, cleanup func(), err error)
	// part makes a part the place names a local folder: the snapshot, or
	// the latest of a place a part was published to.
	part(ctx context.Context) (dir string, cleanup func(), err error)
	// checkParts refuses a place for parts that holds anything else.
	checkParts() error
	// removeParts removes the parts of n shards under the place.
	removeParts(ctx context.Context, n int) error
	list(ctx context.Context) (*publish.Listing, error)
	// putDiff stores a diff report beside the snapshot name.
	putDiff(ctx context.Context, name string, md, js []byte) (string, error)
	// stateRoot is the folder the tool owns beside the snapshot named.
	stateRoot(work Work) (string, error)
}

// parse tells a bucket URL from a folder: the one place that does.
func parse(s string) where {
	if bucket.IsURL(s) {
		return prefix(s)
	}
	return folder(s)
}

// Join adds a name to a folder's path or to a bucket URL's path (its
// query, the driver's options, kept).
func Join(place, name string) string { return parse(place).join(name) }

// Shown is a place as messages show it: a path as given, a URL as given
// with its credentials removed (never the temporary folder a bucket's
// snapshot was fetched to).
func Shown(place string) string { return parse(place).shown() }

// List lists a publish folder, a snapshot folder, a parts folder or a
// bucket prefix.
func List(ctx context.Context, place string) (*publish.Listing, error) {
	return parse(place).list(ctx)
}

// PutDiff stores a diff report, <name>.diff.md and <name>.diff.json,
// beside the snapshot name published at place, and says where the
// Markdown went.
func PutDiff(ctx context.Context, place, name string, md, js []byte) (string, error) {
	return parse(place).putDiff(ctx, name, md, js)
}

// StateRoot is where a command that keeps state of its own about a
// snapshot (push) keeps it by default: beside the snapshot's publish
// target, in the folder the tool already owns there (a publish folder's
// .ingest, an --out folder's .<out>.ingest, a bucket's work folder), so it
// lives as long as the snapshots it describes.
func StateRoot(snapshot string, work Work) (string, error) {
	return parse(snapshot).stateRoot(work)
}

// folder is a place on this machine.
type folder string

func (f folder) join(name string) string { return filepath.Join(string(f), name) }

func (f folder) shown() string { return string(f) }

// prefix is a bucket URL.
type prefix string

func (p prefix) join(name string) string {
	u, err := url.Parse(string(p))
	if err != nil {
		return string(p) + "/" + name // refused with a clear message when opened
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/" + name
	return u.String()
}

func (p prefix) shown() string { return redact.URL(string(p)) }
