package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/schema"
)

// SkipNameNotUTF8 is the skip reason of a file or folder whose name is not
// valid UTF-8; a run reports each as a warning.
const SkipNameNotUTF8 = "name-not-utf8"

// Scan lists every Markdown document under root, as slash-separated paths
// relative to root in byte order (the order chunks are written in), and every
// other file it passed over. Hidden files and folders (".git", ".DS_Store")
// are skipped and listed, never silently. root must be a folder (a link to
// one is followed); anything else is a *schema.SettingError for "corpus".
func Scan(root string) (docs []string, skipped []schema.Skipped, err error) {
	info, err := os.Stat(root)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil, schema.Setting("corpus", "%s: no such folder", root)
	case err != nil:
		return nil, nil, schema.Setting("corpus", "%w", err)
	case !info.IsDir():
		return nil, nil, schema.Setting("corpus", "%s: not a folder; give the folder that holds the Markdown files", root)
	}
	if root, err = filepath.EvalSymlinks(root); err != nil { // the walk does not follow a link
		return nil, nil, schema.Setting("corpus", "%w", err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == root {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !utf8.ValidString(rel) {
			// A name readers cannot store: Parquet strings are UTF-8, and
			// DuckDB refuses a file with another.
			skipped = append(skipped, schema.Skipped{Path: strings.ToValidUTF8(rel, "\uFFFD"), Reason: SkipNameNotUTF8})
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			skipped = append(skipped, schema.Skipped{Path: rel, Reason: "hidden"})
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			skipped = append(skipped, schema.Skipped{Path: rel, Reason: "not-regular"})
		case strings.EqualFold(filepath.Ext(rel), ".md"):
			docs = append(docs, rel)
		default:
			skipped = append(skipped, schema.Skipped{Path: rel, Reason: "not-markdown"})
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("scan corpus %s: %w", root, err)
	}
	// WalkDir orders each folder by name; the snapshot is ordered by whole path.
	sort.Strings(docs)
	sort.Slice(skipped, func(i, j int) bool { return skipped[i].Path < skipped[j].Path })
	return docs, skipped, nil
}
