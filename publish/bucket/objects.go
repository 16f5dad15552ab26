package bucket

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/url"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/internal/redact"
)

// Objects is an object store as a publish uses it, and no more: a bucket
// (or a folder) of keys. Each scheme is one implementation in its own file
// and one line of schemes. Keys are slash-separated and relative to what the
// URL names.
type Objects interface {
	// Get opens key for reading; an error wrapping fs.ErrNotExist when it
	// is not there.
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	// Put stores size bytes read from r under key. With IfNotExist it
	// creates key or fails with an error wrapping fs.ErrExist, decided by
	// the store (S3's If-None-Match: *, O_EXCL), never by a look first.
	Put(ctx context.Context, key string, r io.Reader, size int64, opts PutOptions) error
	// Stat describes key; an error wrapping fs.ErrNotExist when it is not
	// there.
	Stat(ctx context.Context, key string) (Attrs, error)
	// List yields the keys under prefix, in no order to rely on (S3 sends
	// a page's keys, then its common prefixes): a caller that needs one
	// sorts. With delimiter "/", what lies deeper than one level is one
	// Entry with IsDir set and its Key ending in the delimiter, as S3
	// returns common prefixes.
	List(ctx context.Context, prefix, delimiter string) iter.Seq2[Entry, error]
	// Delete removes key; a key that is not there is no error.
	Delete(ctx context.Context, key string) error
	// Copy writes the object src to dst, inside the store.
	Copy(ctx context.Context, dst, src string) error
	Close() error
}

// PutOptions are what a write asks beyond its bytes.
type PutOptions struct {
	IfNotExist  bool   // create only: fs.ErrExist when key is there
	ContentType string // "" for the store's default
}

// Attrs are what Stat tells of an object.
type Attrs struct {
	Size    int64
	ModTime time.Time
}

// Entry is one key a listing yields, or a common prefix (IsDir).
type Entry struct {
	Key   string
	IsDir bool
}

// opener opens the store a URL names (its scheme, host and path); query
// holds its options, and an option it does not take is an error naming it.
type opener func(ctx context.Context, u *url.URL, query url.Values) (Objects, error)

// schemes are the stores a URL can name, one line a scheme. gs:// and
// azblob:// are cloudSchemes: the cloud build tag's, or an explanation.
var schemes = map[string]opener{
	"s3":   openS3,     // AWS S3 and S3-compatible servers (?endpoint=)
	"file": openFolder, // a folder as a bucket
	"mem":  openMem,    // in this process, for tests
}

// OpenObjects opens the store rawURL names, as it is: scheme://bucket/path
// with the scheme's options. It is Open's first step, and what a test uses
// to damage what a run published.
func OpenObjects(ctx context.Context, rawURL string) (Objects, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("publish URL %s: %w", redact.URL(rawURL), err)
	}
	open, ok := schemes[u.Scheme]
	if !ok {
		open, ok = cloudSchemes[u.Scheme]
	}
	if !ok {
		return nil, fmt.Errorf("publish URL %s: no object store takes %s:// (s3://, file://, gs://, azblob://)", redact.URL(rawURL), u.Scheme)
	}
	o, err := open(ctx, u, u.Query())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", redact.URL(rawURL), err)
	}
	return o, nil
}

// readAll reads key whole.
func readAll(ctx context.Context, o Objects, key string) ([]byte, error) {
	r, err := o.Get(ctx, key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// writeAll stores b under key.
func writeAll(ctx context.Context, o Objects, key string, b []byte, opts PutOptions) error {
	return o.Put(ctx, key, bytes.NewReader(b), int64(len(b)), opts)
}

// exists reports whether key is there.
func exists(ctx context.Context, o Objects, key string) (bool, error) {
	_, err := o.Stat(ctx, key)
	if isNotExist(err) {
		return false, nil
	}
	return err == nil, err
}

func isNotExist(err error) bool { return err != nil && errors.Is(err, fs.ErrNotExist) }
func isExist(err error) bool    { return err != nil && errors.Is(err, fs.ErrExist) }

// prefixed is a bucket seen under a prefix ("ocean/"): what the openers of
// s3:// and mem:// make of a URL's path.
type prefixed struct {
	Objects
	prefix string
}

// withPrefix returns o seen under prefix, which ends in "/".
func withPrefix(o Objects, prefix string) Objects {
	if prefix == "" {
		return o
	}
	return &prefixed{o, prefix}
}

func (p *prefixed) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	return p.Objects.Get(ctx, p.prefix+key)
}

func (p *prefixed) Put(ctx context.Context, key string, r io.Reader, size int64, opts PutOptions) error {
	return p.Objects.Put(ctx, p.prefix+key, r, size, opts)
}

func (p *prefixed) Stat(ctx context.Context, key string) (Attrs, error) {
	return p.Objects.Stat(ctx, p.prefix+key)
}

func (p *prefixed) Delete(ctx context.Context, key string) error {
	return p.Objects.Delete(ctx, p.prefix+key)
}

func (p *prefixed) Copy(ctx context.Context, dst, src string) error {
	return p.Objects.Copy(ctx, p.prefix+dst, p.prefix+src)
}

func (p *prefixed) List(ctx context.Context, prefix, delimiter string) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for e, err := range p.Objects.List(ctx, p.prefix+prefix, delimiter) {
			e.Key = strings.TrimPrefix(e.Key, p.prefix)
			if !yield(e, err) {
				return
			}
		}
	}
}
