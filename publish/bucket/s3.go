package bucket

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/minio/minio-go/v7/pkg/encrypt"
)

// s3Objects is a bucket of AWS S3 or of a server that speaks its API
// (MinIO, SeaweedFS, Ceph, Cloudflare R2, GCS's XML API with HMAC keys),
// through minio-go: one small client with the credential chain users
// expect, instead of the AWS SDK's two dozen modules.
type s3Objects struct {
	c      *minio.Core
	bucket string
	sse    encrypt.ServerSide // ?ssetype=, nil for the bucket's default
	// singleMax is the largest object written in one PUT: one request,
	// streamed from its file, whose If-None-Match: * every server that
	// knows the header honours (gofakes3 only there, not on a multipart
	// completion). Only what one PUT cannot carry goes in parts, partSize
	// each, the completion conditional.
	singleMax, partSize int64
}

var _ Objects = (*s3Objects)(nil)

const (
	s3SingleMax = 5 << 30  // S3's limit for one PUT
	s3PartSize  = 64 << 20 // held in memory one at a time; 10,000 of them carry 625 GiB, beyond that parts grow
	s3MaxParts  = 10000    // S3's limit of parts in an upload
)

// s3Options are the options an s3:// URL takes: those gocloud.dev's s3blob
// took that a publish can use, so URLs written for it keep working.
var s3Options = []string{"region", "endpoint", "use_path_style", "s3ForcePathStyle", "disable_https", "profile", "anonymous", "dualstack", "accelerate", "ssetype", "kmskeyid", "awssdk"}

// openS3 opens s3://BUCKET/PREFIX?options. Credentials come from the chain
// the AWS tools use, read by minio-go: AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN; the shared credentials and
// config files (AWS_PROFILE, ?profile=, SSO, credential_process); a web
// identity token, the ECS or EKS container endpoint, or EC2's instance
// metadata. Without a region the bucket's is asked for.
func openS3(_ context.Context, u *url.URL, q url.Values) (Objects, error) {
	for k := range q {
		if !slices.Contains(s3Options, k) {
			return nil, fmt.Errorf("s3:// takes no option %q (it takes %s)", k, strings.Join(s3Options, ", "))
		}
	}
	flag := func(k string) (bool, error) {
		if q.Get(k) == "" {
			return false, nil
		}
		v, err := strconv.ParseBool(q.Get(k))
		if err != nil {
			return false, fmt.Errorf("option %s=%q: want true or false", k, q.Get(k))
		}
		return v, nil
	}
	if u.Host == "" {
		return nil, errors.New("s3:// names no bucket: want s3://BUCKET/prefix")
	}
	host, secure, lookup := "s3.amazonaws.com", true, minio.BucketLookupAuto
	if e := q.Get("endpoint"); e != "" {
		eu, err := url.Parse(e)
		if err != nil || eu.Host == "" || (eu.Scheme != "http" && eu.Scheme != "https") || strings.Trim(eu.Path, "/") != "" {
			return nil, fmt.Errorf("option endpoint: want http://HOST[:PORT] or https://HOST[:PORT]")
		}
		// A user:pass@ in it never reached S3 (the signature's Authorization
		// header wins over it): dropped, as it was, so such URLs still open.
		host, secure = eu.Host, eu.Scheme == "https"
	}
	plain, err := flag("disable_https")
	if err != nil {
		return nil, err
	}
	secure = secure && !plain
	for _, k := range []string{"use_path_style", "s3ForcePathStyle"} {
		if q.Get(k) == "" {
			continue
		}
		switch path, err := flag(k); {
		case err != nil:
			return nil, err
		case path:
			lookup = minio.BucketLookupPath
		default:
			lookup = minio.BucketLookupDNS
		}
	}
	creds := credentials.NewChainCredentials([]credentials.Provider{
		&credentials.EnvAWS{},
		&credentials.FileAWSCredentials{Profile: q.Get("profile")},
		&credentials.IAM{},
	})
	if anon, err := flag("anonymous"); err != nil {
		return nil, err
	} else if anon {
		creds = credentials.New(&credentials.Static{Value: credentials.Value{SignerType: credentials.SignatureAnonymous}})
	}
	c, err := minio.NewCore(host, &minio.Options{Creds: creds, Secure: secure, Region: q.Get("region"), BucketLookup: lookup})
	if err != nil {
		return nil, err
	}
	for k, set := range map[string]func(){
		"dualstack":  func() { c.SetS3EnableDualstack(true) },
		"accelerate": func() { c.SetS3TransferAccelerate("s3-accelerate.amazonaws.com") },
	} {
		if on, err := flag(k); err != nil {
			return nil, err
		} else if on {
			set()
		}
	}
	o := &s3Objects{c: c, bucket: u.Host, singleMax: s3SingleMax, partSize: s3PartSize}
	switch t := q.Get("ssetype"); {
	case strings.EqualFold(t, "AES256"):
		o.sse = encrypt.NewSSE()
	case strings.EqualFold(t, "aws:kms"):
		if o.sse, err = encrypt.NewSSEKMS(q.Get("kmskeyid"), nil); err != nil {
			return nil, err
		}
	case t != "":
		return nil, fmt.Errorf("option ssetype=%q: want AES256 or aws:kms", t)
	}
	return withPrefix(o, prefixOf(u.Path)), nil
}

// prefixOf is a URL path as a key prefix: "/ocean/" → "ocean/".
func prefixOf(p string) string {
	if p = strings.Trim(p, "/"); p != "" {
		p += "/"
	}
	return p
}

// s3Error keeps the server's message and tells errors.Is what it means.
type s3Error struct{ err, is error }

func (e s3Error) Error() string   { return e.err.Error() }
func (e s3Error) Unwrap() []error { return []error{e.err, e.is} }

// classify maps the answers the store acts on to fs.ErrNotExist and
// fs.ErrExist.
func classify(err error) error {
	if err == nil {
		return nil
	}
	r := minio.ToErrorResponse(err)
	switch {
	case r.Code == "NoSuchBucket": // a wrong URL, not an empty prefix: said as the server says it
	case r.StatusCode == http.StatusNotFound || r.Code == "NoSuchKey" || r.Code == "NotFound":
		return s3Error{err, fs.ErrNotExist}
	case r.StatusCode == http.StatusPreconditionFailed || r.Code == "PreconditionFailed":
		return s3Error{err, fs.ErrExist}
	}
	return err
}

func (o *s3Objects) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	r, _, _, err := o.c.GetObject(ctx, o.bucket, key, minio.GetObjectOptions{})
	return r, classify(err)
}

func (o *s3Objects) Put(ctx context.Context, key string, r io.Reader, size int64, opts PutOptions) error {
	po := minio.PutObjectOptions{ContentType: opts.ContentType, ServerSideEncryption: o.sse, DisableMultipart: true}
	if size > o.singleMax {
		return o.putParts(ctx, key, r, size, po, opts.IfNotExist)
	}
	if opts.IfNotExist {
		po.SetMatchETagExcept("*")
	}
	// minio-go signs a body over plain HTTP in chunks, which for no bytes
	// it sends without a length (gofakes3 answers MissingContentLength).
	po.DisableContentSha256 = size == 0
	_, err := o.c.Client.PutObject(ctx, o.bucket, key, r, size, po)
	return classify(err)
}

// putParts writes an object too large for one PUT as a multipart upload:
// the parts unconditionally, the completion with If-None-Match: * (which
// S3 and MinIO honour there, and not on the upload's start), so the object
// appears whole or not at all, and never over another.
func (o *s3Objects) putParts(ctx context.Context, key string, r io.Reader, size int64, po minio.PutObjectOptions, ifNotExist bool) (err error) {
	part := max(o.partSize, (size+s3MaxParts-1)/s3MaxParts)
	id, err := o.c.NewMultipartUpload(ctx, o.bucket, key, po)
	if err != nil {
		return classify(err)
	}
	defer func() {
		if err != nil {
			_ = o.c.AbortMultipartUpload(context.WithoutCancel(ctx), o.bucket, key, id)
		}
	}()
	var done []minio.CompletePart
	buf := make([]byte, part)
	for n := 1; size > 0; n++ {
		m := min(part, size)
		if _, err := io.ReadFull(r, buf[:m]); err != nil {
			return err
		}
		// The part is in memory: signed with its own hash, not in chunks.
		sum := sha256.Sum256(buf[:m])
		p, err := o.c.PutObjectPart(ctx, o.bucket, key, id, n, bytes.NewReader(buf[:m]), m, minio.PutObjectPartOptions{SSE: o.sse, Sha256Hex: hex.EncodeToString(sum[:]), DisableContentSha256: true})
		if err != nil {
			return classify(err)
		}
		done = append(done, minio.CompletePart{PartNumber: n, ETag: p.ETag})
		size -= m
	}
	complete := minio.PutObjectOptions{}
	if ifNotExist {
		complete.SetMatchETagExcept("*")
	}
	_, err = o.c.CompleteMultipartUpload(ctx, o.bucket, key, id, done, complete)
	return classify(err)
}

func (o *s3Objects) Stat(ctx context.Context, key string) (Attrs, error) {
	i, err := o.c.StatObject(ctx, o.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return Attrs{}, classify(err)
	}
	return Attrs{Size: i.Size, ModTime: i.LastModified}, nil
}

// List pages through ListObjectsV2. minio-go lists in a goroutine of its
// own; cancelling its context when the caller stops ends it.
func (o *s3Objects) List(ctx context.Context, prefix, delimiter string) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		if delimiter != "" && delimiter != "/" {
			yield(Entry{}, fmt.Errorf("s3: list with delimiter %q: only \"/\" is supported", delimiter))
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		for i := range o.c.Client.ListObjects(ctx, o.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: delimiter == ""}) {
			if i.Err != nil {
				yield(Entry{}, i.Err)
				return
			}
			if !yield(Entry{Key: i.Key, IsDir: delimiter != "" && strings.HasSuffix(i.Key, "/")}, nil) {
				return
			}
		}
	}
}

func (o *s3Objects) Delete(ctx context.Context, key string) error {
	if err := classify(o.c.RemoveObject(ctx, o.bucket, key, minio.RemoveObjectOptions{})); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (o *s3Objects) Copy(ctx context.Context, dst, src string) error {
	_, err := o.c.Client.CopyObject(ctx, minio.CopyDestOptions{Bucket: o.bucket, Object: dst, Encryption: o.sse}, minio.CopySrcOptions{Bucket: o.bucket, Object: src})
	return classify(err)
}

func (o *s3Objects) Close() error { return nil }
