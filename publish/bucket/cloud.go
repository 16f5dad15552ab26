//go:build cloud

package bucket

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/url"
	"strings"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // azblob://
	_ "gocloud.dev/blob/gcsblob"   // gs://
	"gocloud.dev/gcerrors"
)

// cloudSchemes are Google Cloud Storage's and Azure Blob Storage's native
// APIs, through gocloud.dev: built with -tags cloud only, since their SDKs
// (gRPC, OpenTelemetry, two cloud SDKs) would double the binary of everyone
// who publishes to S3 or a folder.
var cloudSchemes = map[string]opener{
	"gs":     openCloud,
	"azblob": openCloud,
}

// cloudObjects is a gocloud.dev bucket as Objects.
type cloudObjects struct{ b *blob.Bucket }

var _ Objects = (*cloudObjects)(nil)

// openCloud opens the bucket with gocloud.dev's URL options for its scheme
// (GOOGLE_APPLICATION_CREDENTIALS, AZURE_STORAGE_ACCOUNT…, read by its SDK).
func openCloud(ctx context.Context, u *url.URL, q url.Values) (Objects, error) {
	prefix := prefixOf(u.Path)
	bu := *u
	bu.Path, bu.RawQuery = "", q.Encode()
	b, err := blob.OpenBucket(ctx, bu.String())
	if err != nil {
		return nil, err
	}
	return withPrefix(&cloudObjects{b}, prefix), nil
}

// cloudError keeps gocloud's message and tells errors.Is what it means.
func cloudError(err error) error {
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		return s3Error{err, fs.ErrNotExist}
	case gcerrors.FailedPrecondition:
		return s3Error{err, fs.ErrExist}
	}
	return err
}

func (o *cloudObjects) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	r, err := o.b.NewReader(ctx, key, nil)
	if err != nil {
		return nil, cloudError(err)
	}
	return r, nil
}

func (o *cloudObjects) Put(ctx context.Context, key string, r io.Reader, _ int64, opts PutOptions) error {
	w, err := o.b.NewWriter(ctx, key, &blob.WriterOptions{IfNotExist: opts.IfNotExist, ContentType: opts.ContentType})
	if err != nil {
		return cloudError(err)
	}
	_, err = io.Copy(w, r)
	return cloudError(errors.Join(err, w.Close()))
}

func (o *cloudObjects) Stat(ctx context.Context, key string) (Attrs, error) {
	a, err := o.b.Attributes(ctx, key)
	if err != nil {
		return Attrs{}, cloudError(err)
	}
	return Attrs{Size: a.Size, ModTime: a.ModTime}, nil
}

func (o *cloudObjects) List(ctx context.Context, prefix, delimiter string) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		it := o.b.List(&blob.ListOptions{Prefix: prefix, Delimiter: delimiter})
		for {
			obj, err := it.Next(ctx)
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(Entry{}, err)
				return
			}
			if !yield(Entry{Key: obj.Key, IsDir: obj.IsDir && strings.HasSuffix(obj.Key, delimiter)}, nil) {
				return
			}
		}
	}
}

func (o *cloudObjects) Delete(ctx context.Context, key string) error {
	if err := o.b.Delete(ctx, key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

func (o *cloudObjects) Copy(ctx context.Context, dst, src string) error {
	return cloudError(o.b.Copy(ctx, dst, src, nil))
}

func (o *cloudObjects) Close() error { return o.b.Close() }
