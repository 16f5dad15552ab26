package bucket

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/publish"
)

// folderObjects is a folder as a bucket (file:///srv/knowledge): a key is
// a file under it, written as a folder publish writes (a temporary file
// beside it, fsynced, renamed in, the folder fsynced), created only if
// absent by a hard link, which the file system refuses over an existing
// name. The folder and those under it are made as writes need them, so a
// file:// prefix behaves as an s3:// one.
type folderObjects struct{ root string }

var _ Objects = (*folderObjects)(nil)

const (
	tmpMark  = ".ingest-tmp-" // a write in flight: never listed
	attrsExt = ".attrs"       // gocloud.dev's fileblob kept attributes beside each file: never listed, removed with it
)

// openFolder opens file:///PATH (file://./PATH: relative to here). It takes
// fileblob's create_dir and no_tmp_dir, which change nothing here.
func openFolder(_ context.Context, u *url.URL, q url.Values) (Objects, error) {
	for k := range q {
		if k != "create_dir" && k != "no_tmp_dir" {
			return nil, fmt.Errorf("file:// takes no option %q", k)
		}
	}
	p := u.Path
	switch u.Host {
	case "", "localhost":
	case ".":
		p = strings.TrimPrefix(p, "/")
	default:
		return nil, fmt.Errorf("file://%s/…: want file:///PATH (no host)", u.Host)
	}
	if filepath.Separator != '/' && u.Host != "." { // file:///C:/k is C:\k
		p = strings.TrimPrefix(p, "/")
	}
	if p == "" {
		return nil, errors.New("file:// names no folder")
	}
	return &folderObjects{root: filepath.Clean(filepath.FromSlash(p))}, nil
}

// path is key's file; a key that would leave the folder is refused.
func (o *folderObjects) path(key string) (string, error) {
	if key == "" || !fs.ValidPath(key) || strings.Contains(key, `\`) {
		return "", fmt.Errorf("%q is not a key of a folder store", key)
	}
	return filepath.Join(o.root, filepath.FromSlash(key)), nil
}

func (o *folderObjects) Get(_ context.Context, key string) (io.ReadCloser, error) {
	p, err := o.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || info.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	return f, nil
}

func (o *folderObjects) Put(_ context.Context, key string, r io.Reader, _ int64, opts PutOptions) error {
	p, err := o.path(key)
	if err != nil {
		return err
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, tmpMark+"*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // once linked or renamed in, a name that is gone
	_, err = io.Copy(tmp, r)
	if err == nil {
		err = tmp.Sync()
	}
	if err = errors.Join(err, tmp.Close()); err != nil {
		return err
	}
	if opts.IfNotExist {
		err = os.Link(tmp.Name(), p) // EEXIST over a name that is there, decided by the file system
	} else {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		return err
	}
	return publish.SyncDir(dir)
}

func (o *folderObjects) Stat(_ context.Context, key string) (Attrs, error) {
	p, err := o.path(key)
	if err != nil {
		return Attrs{}, err
	}
	info, err := os.Stat(p)
	if err == nil && info.IsDir() {
		err = &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
	}
	if err != nil {
		return Attrs{}, err
	}
	return Attrs{Size: info.Size(), ModTime: info.ModTime()}, nil
}

// List walks the folder the prefix ends in, from the deepest one it names
// whole, and sorts what it found: a folder store is small, and a key order
// is what callers (and S3) expect.
func (o *folderObjects) List(_ context.Context, prefix, delimiter string) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		base := prefix[:strings.LastIndexByte(prefix, '/')+1] // "a/b/c" walks a/b/
		start := filepath.Join(o.root, filepath.FromSlash(base))
		seen := map[string]bool{}
		err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == start {
				return filepath.SkipAll // nothing written there yet
			}
			if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), tmpMark) || strings.HasSuffix(d.Name(), attrsExt) {
				return err
			}
			rel, _ := filepath.Rel(o.root, p)
			key := filepath.ToSlash(rel)
			if rest, ok := strings.CutPrefix(key, prefix); ok {
				if i := strings.Index(rest, delimiter); delimiter != "" && i >= 0 {
					key = prefix + rest[:i+len(delimiter)]
				}
				seen[key] = true
			}
			return nil
		})
		if err != nil {
			yield(Entry{}, err)
			return
		}
		keys := make([]string, 0, len(seen))
		for k := range seen {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !yield(Entry{Key: k, IsDir: delimiter != "" && strings.HasSuffix(k, delimiter)}, nil) {
				return
			}
		}
	}
}

// Delete removes key's file (and fileblob's attributes beside it), then
// the folders it leaves empty, up to the store's.
func (o *folderObjects) Delete(_ context.Context, key string) error {
	p, err := o.path(key)
	if err != nil {
		return err
	}
	for _, f := range []string{p, p + attrsExt} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	for dir := path.Dir(key); dir != "."; dir = path.Dir(dir) {
		if os.Remove(filepath.Join(o.root, filepath.FromSlash(dir))) != nil {
			break // not empty, or gone: the rest above it holds something
		}
	}
	return nil
}

func (o *folderObjects) Copy(ctx context.Context, dst, src string) error {
	r, err := o.Get(ctx, src)
	if err != nil {
		return err
	}
	defer r.Close()
	return o.Put(ctx, dst, r, -1, PutOptions{})
}

func (o *folderObjects) Close() error { return nil }
