package bucket

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// memObjects is a bucket in this process's memory (mem://NAME/prefix),
// empty when opened and gone when closed: for tests of what is built
// around a store, as gocloud.dev's memblob was.
type memObjects struct {
	mu      sync.Mutex
	objects map[string]memObject
}

type memObject struct {
	data    []byte
	modTime time.Time
}

var _ Objects = (*memObjects)(nil)

func openMem(_ context.Context, u *url.URL, q url.Values) (Objects, error) {
	for k := range q {
		return nil, fmt.Errorf("mem:// takes no option %q", k)
	}
	return withPrefix(&memObjects{objects: map[string]memObject{}}, prefixOf(u.Path)), nil
}

func (o *memObjects) Get(_ context.Context, key string) (io.ReadCloser, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	obj, ok := o.objects[key]
	if !ok {
		return nil, &fs.PathError{Op: "get", Path: key, Err: fs.ErrNotExist}
	}
	return io.NopCloser(bytes.NewReader(obj.data)), nil
}

func (o *memObjects) Put(_ context.Context, key string, r io.Reader, _ int64, opts PutOptions) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.objects[key]; ok && opts.IfNotExist {
		return &fs.PathError{Op: "put", Path: key, Err: fs.ErrExist}
	}
	o.objects[key] = memObject{b, time.Now()}
	return nil
}

func (o *memObjects) Stat(_ context.Context, key string) (Attrs, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	obj, ok := o.objects[key]
	if !ok {
		return Attrs{}, &fs.PathError{Op: "stat", Path: key, Err: fs.ErrNotExist}
	}
	return Attrs{Size: int64(len(obj.data)), ModTime: obj.modTime}, nil
}

func (o *memObjects) List(_ context.Context, prefix, delimiter string) iter.Seq2[Entry, error] {
	o.mu.Lock()
	var keys []string
	for k := range o.objects {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			if i := strings.Index(rest, delimiter); delimiter != "" && i >= 0 {
				k = prefix + rest[:i+len(delimiter)]
			}
			keys = append(keys, k)
		}
	}
	o.mu.Unlock()
	slices.Sort(keys)
	keys = slices.Compact(keys)
	return func(yield func(Entry, error) bool) {
		for _, k := range keys {
			if !yield(Entry{Key: k, IsDir: delimiter != "" && strings.HasSuffix(k, delimiter)}, nil) {
				return
			}
		}
	}
}

func (o *memObjects) Delete(_ context.Context, key string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.objects, key)
	return nil
}

func (o *memObjects) Copy(_ context.Context, dst, src string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	obj, ok := o.objects[src]
	if !ok {
		return &fs.PathError{Op: "copy", Path: src, Err: fs.ErrNotExist}
	}
	o.objects[dst] = memObject{obj.data, time.Now()}
	return nil
}

func (o *memObjects) Close() error { return nil }
