package place

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/bucket"
)

func (f folder) list(context.Context) (*publish.Listing, error) {
	l, err := publish.List(string(f))
	if err != nil {
		return nil, refuse("list %s: %v", f, err)
	}
	return l, nil
}

func (p prefix) list(ctx context.Context) (*publish.Listing, error) {
	store, err := bucket.Open(ctx, string(p))
	if err != nil {
		return nil, err
	}
	defer store.Close()
	return store.List(ctx)
}

func (f folder) putDiff(_ context.Context, name string, md, js []byte) (string, error) {
	path := filepath.Join(string(f), name+".diff.md")
	if err := os.WriteFile(path, md, 0o644); err != nil {
		return "", err
	}
	return path, os.WriteFile(filepath.Join(string(f), name+".diff.json"), js, 0o644)
}

func (p prefix) putDiff(ctx context.Context, name string, md, js []byte) (string, error) {
	store, err := bucket.Open(ctx, string(p))
	if err != nil {
		return "", err
	}
	defer store.Close()
	if err := store.PutReport(ctx, name, ".diff.md", md); err != nil {
		return "", err
	}
	if err := store.PutReport(ctx, name, ".diff.json", js); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s (%s.diff.md)", store, name), nil
}

// stateRoot: a snapshot of a publish folder has the folder's state, any
// other folder its --out state.
func (f folder) stateRoot(Work) (string, error) {
	dir := filepath.Clean(string(f))
	if parent := filepath.Dir(dir); isPublishFolder(parent) {
		return publish.PublishTarget(parent, 0, "").State(), nil
	}
	return publish.OutTarget(dir, "").State(), nil
}

func (p prefix) stateRoot(work Work) (string, error) {
	pre, _, err := splitSnapshotURL(string(p))
	if err != nil {
		return "", err
	}
	dir, err := work.dir(pre)
	if err != nil {
		return "", err
	}
	return publish.RemoteTarget(nil, dir, 0, "").State(), nil
}

func isPublishFolder(dir string) bool {
	_, err := publish.Latest(dir)
	return err == nil
}
