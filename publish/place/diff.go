package place

import (
	"bytes"
	"context"

	"github.com/ocean-safety/ingest/artifacts/diff"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/publish"
)

// WriteDiff writes <name>.diff.md and <name>.diff.json beside a newly
// published snapshot, against the one latest pointed at before (--diff):
// what a reviewer reads before consumers do. It returns where the Markdown
// went, or "" when there is nothing to compare (a first publish, or the
// same snapshot again). root is where the run published, as its command
// line named it.
func WriteDiff(ctx context.Context, root string, pub publish.Published) (string, error) {
	if pub.Previous == "" || pub.Reused {
		return "", nil
	}
	// The run's own copies where it has them; a download otherwise.
	local := func(dir, at string) (string, func(), error) {
		if dir != "" {
			return dir, func() {}, nil
		}
		return Snapshot(ctx, at)
	}
	oldDir, cleanOld, err := local(pub.PreviousLocal, pub.Previous)
	if err != nil {
		return "", err
	}
	defer cleanOld()
	if _, err := verify.VerifyFiles(oldDir); err != nil { // a broken previous would diff as a change of the corpus
		return "", err
	}
	newDir, cleanNew, err := local(pub.Local, pub.Path)
	if err != nil {
		return "", err
	}
	defer cleanNew()
	rep, err := diff.CompareContext(ctx, oldDir, newDir)
	if err != nil {
		return "", err
	}
	var md, js bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		return "", err
	}
	if err := rep.WriteJSON(&js); err != nil {
		return "", err
	}
	return PutDiff(ctx, root, pub.Name, md.Bytes(), js.Bytes())
}

// Compare is what changed from snapshot from to snapshot to, each named as
// a command line names one (a folder, a publish folder's latest, a
// bucket's URL/latest or URL/<name>: Trusted).
func Compare(ctx context.Context, from, to string) (*diff.Report, error) {
	var err error
	dirs := make([]string, 2)
	for i, arg := range []string{from, to} {
		var cleanup func()
		if dirs[i], cleanup, err = Trusted(ctx, arg); err != nil {
			return nil, err
		}
		defer cleanup()
	}
	return diff.CompareContext(ctx, dirs[0], dirs[1])
}
