package bucket_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/ocean-safety/ingest/publish/bucket"
)

// stores are the schemes a store is tested on, each opened empty.
func stores(t *testing.T) []struct {
	name string
	url  func(t *testing.T) string
} {
	return []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"s3", fakeS3},
		{"file", func(t *testing.T) string {
			return "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "not", "yet"))
		}},
		{"mem", func(*testing.T) string { return "mem://knowledge/ocean" }},
	}
}

func put(t *testing.T, o bucket.Objects, key, data string, opts bucket.PutOptions) error {
	t.Helper()
	return o.Put(context.Background(), key, strings.NewReader(data), int64(len(data)), opts)
}

func list(t *testing.T, o bucket.Objects, prefix, delimiter string) []string {
	t.Helper()
	var out []string
	for e, err := range o.List(context.Background(), prefix, delimiter) {
		if err != nil {
			t.Fatal(err)
		}
		if e.IsDir != strings.HasSuffix(e.Key, "/") {
			t.Errorf("got %+v: a common prefix, and only one, ends in the delimiter", e)
		}
		out = append(out, e.Key)
	}
	slices.Sort(out) // no order is promised
	return out
}

// TestObjects holds every store to what the publish relies on: a create
// refused over an existing object (the lease, a journal piece and a
// snapshot's files depend on it), not-found told apart, a modification
// time, listing by prefix with and without the delimiter, copy, delete.
func TestObjects(t *testing.T) {
	for _, st := range stores(t) {
		t.Run(st.name, func(t *testing.T) { checkObjects(t, raw(t, st.url(t))) })
	}
}

func checkObjects(t *testing.T, o bucket.Objects) {
	t.Helper()
	ctx := context.Background()
	if got := list(t, o, "", "/"); len(got) != 0 {
		t.Errorf("a new store lists %v, want nothing", got)
	}
	if _, err := o.Get(ctx, "latest.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Get of a missing key: got %v, want fs.ErrNotExist", err)
	}
	if _, err := o.Stat(ctx, "latest.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat of a missing key: got %v, want fs.ErrNotExist", err)
	}
	if err := o.Delete(ctx, "latest.json"); err != nil {
		t.Errorf("Delete of a missing key: got %v, want nil", err)
	}
	create := bucket.PutOptions{IfNotExist: true}
	if err := put(t, o, ".lease", "mine", create); err != nil {
		t.Fatalf("create: %v", err)
	}
	if err := put(t, o, ".lease", "theirs", create); !errors.Is(err, fs.ErrExist) {
		t.Errorf("create over an existing object: got %v, want fs.ErrExist", err)
	}
	if b, _ := readObject(t, o, ".lease"); string(b) != "mine" {
		t.Errorf("after a refused create: got %q, want %q", b, "mine")
	}
	if err := put(t, o, ".lease", "renewed", bucket.PutOptions{}); err != nil {
		t.Errorf("overwrite: %v", err)
	}
	if err := put(t, o, "empty", "", create); err != nil {
		t.Errorf("an empty object: %v", err)
	}
	a, err := o.Stat(ctx, ".lease")
	if err != nil || a.Size != int64(len("renewed")) || time.Since(a.ModTime).Abs() > time.Hour {
		t.Errorf("Stat: got %+v, %v; want 7 bytes written just now", a, err)
	}
	for _, k := range []string{"20261201T020000Z-0123456789ab/manifest.json", "20261201T020000Z-0123456789ab/chunks.parquet", "parts/run/shard-1-of-2/latest.json", "latest.json"} {
		if err := put(t, o, k, k, bucket.PutOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		prefix, delimiter string
		want              []string
	}{
		{"", "/", []string{".lease", "20261201T020000Z-0123456789ab/", "empty", "latest.json", "parts/"}},
		{"parts/", "/", []string{"parts/run/"}},
		{"20261201T020000Z-0123456789ab/", "", []string{"20261201T020000Z-0123456789ab/chunks.parquet", "20261201T020000Z-0123456789ab/manifest.json"}},
		{"parts/", "", []string{"parts/run/shard-1-of-2/latest.json"}},
		{"late", "", []string{"latest.json"}},
		{"nothing/", "/", nil},
	}
	for _, tt := range tests {
		if got := list(t, o, tt.prefix, tt.delimiter); !slices.Equal(got, tt.want) {
			t.Errorf("List(%q, %q): got %v, want %v", tt.prefix, tt.delimiter, got, tt.want)
		}
	}
	if err := o.Copy(ctx, ".broken/x/manifest.json", "20261201T020000Z-0123456789ab/manifest.json"); err != nil {
		t.Fatal(err)
	}
	if b, _ := readObject(t, o, ".broken/x/manifest.json"); string(b) != "20261201T020000Z-0123456789ab/manifest.json" {
		t.Errorf("copy: got %q", b)
	}
	for _, k := range list(t, o, "20261201T020000Z-0123456789ab/", "") {
		if err := o.Delete(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	// The prefix may still be listed (SeaweedFS keeps a folder after its
	// last object; S3 does not): nothing relies on either.
	if got := list(t, o, "20261201T020000Z-0123456789ab/", ""); len(got) != 0 {
		t.Errorf("after deleting its objects the prefix holds %v", got)
	}
}

// TestS3Server holds a real S3-compatible server (SeaweedFS, started by
// .ci/seaweedfs.sh, which sets INGEST_TEST_S3) to what TestObjects holds
// the fakes to, and to a create refused over an object both on a PUT and
// on a multipart upload's completion, which gofakes3 does not refuse.
func TestS3Server(t *testing.T) {
	endpoint := os.Getenv("INGEST_TEST_S3")
	if endpoint == "" {
		t.Skip("INGEST_TEST_S3 is not set: run .ci/seaweedfs.sh test for the real-S3 tier")
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "ingest-test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "ingest-test")
	url := "s3://knowledge/objects-" + time.Now().UTC().Format("20060102T150405.000000000") + "?endpoint=" + endpoint + "&region=us-east-1&use_path_style=true"
	t.Run("objects", func(t *testing.T) { checkObjects(t, raw(t, url)) })
	t.Run("an interrupted upload cleaned once", func(t *testing.T) {
		s := open(t, strings.Replace(url, "?", "/clean?", 1))
		stray := filepath.Join(t.TempDir(), "chunks.parquet")
		os.WriteFile(stray, []byte("half a file"), 0o644)
		if err := s.PutRaw(context.Background(), "20200101T000000Z-0123456789ab/chunks.parquet", stray); err != nil {
			t.Fatal(err)
		}
		for i, want := range [][]string{{"20200101T000000Z-0123456789ab"}, nil} {
			if got, aside, err := s.Clean(context.Background()); err != nil || !slices.Equal(got, want) || aside != nil {
				t.Errorf("Clean %d: got %v, %v; want %v", i+1, got, err, want)
			}
		}
	})
	o := raw(t, url)
	bucket.SetS3Parts(o, 6<<20, 5<<20)
	for _, data := range [][]byte{[]byte("{}"), bytes.Repeat([]byte("0123456789abcdef"), (11<<20)/16)} {
		key := fmt.Sprintf("create-%d", len(data))
		for i, want := range []error{nil, fs.ErrExist} {
			if err := o.Put(context.Background(), key, bytes.NewReader(data), int64(len(data)), bucket.PutOptions{IfNotExist: true}); !errors.Is(err, want) {
				t.Errorf("%d bytes, create %d: got %v, want %v", len(data), i+1, err, want)
			}
		}
		if b, err := readObject(t, o, key); err != nil || !bytes.Equal(b, data) {
			t.Errorf("read back %d bytes (%v), want the %d written", len(b), err, len(data))
		}
	}
}

// TestCreateRace: of writers racing to create one key, exactly one wins,
// as two runs racing for a lease must.
func TestCreateRace(t *testing.T) {
	for _, st := range stores(t)[1:] { // gofakes3 does not promise it under concurrency; S3 does
		t.Run(st.name, func(t *testing.T) {
			o := raw(t, st.url(t))
			var wg sync.WaitGroup
			won := make(chan int, 8)
			for i := range 8 {
				wg.Go(func() {
					if err := put(t, o, ".lease", strings.Repeat("x", i+1), bucket.PutOptions{IfNotExist: true}); err == nil {
						won <- i
					} else if !errors.Is(err, fs.ErrExist) {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			close(won)
			var winners []int
			for i := range won {
				winners = append(winners, i)
			}
			b, _ := readObject(t, o, ".lease")
			if len(winners) != 1 || len(b) != winners[0]+1 {
				t.Errorf("got winners %v and a lease of %d bytes, want one winner whose lease it is", winners, len(b))
			}
		})
	}
}

// recorder is gofakes3 with the requests it was sent: method, the query's
// keys and If-None-Match.
type recorder struct {
	mu   sync.Mutex
	seen []string
}

func (r *recorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		q := req.URL.Query()
		what := req.Method
		for _, k := range []string{"uploads", "partNumber", "uploadId"} {
			if q.Has(k) && (k != "uploadId" || !q.Has("partNumber")) {
				what += " ?" + k
			}
		}
		r.mu.Lock()
		r.seen = append(r.seen, what+" If-None-Match:"+req.Header.Get("If-None-Match"))
		r.mu.Unlock()
		h.ServeHTTP(w, req)
	})
}

// TestS3ConditionalCreate: If-None-Match: * reaches the server on a
// create, in one PUT up to the single-PUT limit and, above it, on the
// multipart upload's completion (where S3 evaluates it; not on its start),
// and the upload arrives whole. gofakes3 ignores the condition on a
// completion, so what is held here is that it is sent there; a create over
// an object is refused by the server's 412 on a PUT.
func TestS3ConditionalCreate(t *testing.T) {
	backend := s3mem.New()
	rec := &recorder{}
	srv := httptest.NewServer(rec.wrap(gofakes3.New(backend).Server()))
	t.Cleanup(srv.Close)
	if err := backend.CreateBucket("knowledge"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "test-key-id")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	o := raw(t, "s3://knowledge/ocean?endpoint="+srv.URL+"&region=us-east-1&use_path_style=true")
	bucket.SetS3Parts(o, 6<<20, 5<<20) // S3's smallest part
	big := bytes.Repeat([]byte("0123456789abcdef"), (11<<20)/16)
	tests := []struct {
		name   string
		data   []byte
		create bool
		want   []string
	}{
		{"small, created", []byte("{}"), true, []string{"PUT If-None-Match:*"}},
		{"small, overwritten", []byte("{}"), false, []string{"PUT If-None-Match:"}},
		{"large, created", big, true, []string{"POST ?uploads If-None-Match:", "PUT ?partNumber If-None-Match:", "PUT ?partNumber If-None-Match:", "PUT ?partNumber If-None-Match:", "POST ?uploadId If-None-Match:*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.mu.Lock()
			rec.seen = nil
			rec.mu.Unlock()
			key := strings.ReplaceAll(tt.name, " ", "")
			if err := o.Put(context.Background(), key, bytes.NewReader(tt.data), int64(len(tt.data)), bucket.PutOptions{IfNotExist: tt.create}); err != nil {
				t.Fatal(err)
			}
			rec.mu.Lock()
			got := slices.DeleteFunc(slices.Clone(rec.seen), func(s string) bool { return strings.HasPrefix(s, "GET") || strings.HasPrefix(s, "HEAD") })
			rec.mu.Unlock()
			if !slices.Equal(got, tt.want) {
				t.Errorf("got requests %q, want %q", got, tt.want)
			}
			if b, err := readObject(t, o, key); err != nil || !bytes.Equal(b, tt.data) {
				t.Errorf("read back %d bytes (%v), want the %d written", len(b), err, len(tt.data))
			}
		})
	}
	if err := o.Put(context.Background(), "small,created", strings.NewReader("x"), 1, bucket.PutOptions{IfNotExist: true}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a create over an object: got %v, want fs.ErrExist from the server's 412", err)
	}
}

// TestOpenOptions: the URL options users' configs carry (those
// gocloud.dev's s3blob took, the older s3ForcePathStyle among them) open,
// and an option nobody takes is refused, named.
func TestOpenOptions(t *testing.T) {
	tests := []struct {
		url     string
		wantErr string // "" opens
	}{
		{"s3://knowledge/ocean?endpoint=http://127.0.0.1:9000&region=us-east-1&use_path_style=true", ""},
		{"s3://knowledge/ocean?s3ForcePathStyle=true&region=eu-west-1", ""},
		{"s3://knowledge?awssdk=v2&profile=ci&disable_https=true&dualstack=false&accelerate=false&anonymous=false", ""},
		{"s3://knowledge?endpoint=https://storage.googleapis.com", ""},
		{"s3://knowledge?ssetype=AES256", ""},
		{"s3://knowledge?ssetype=aws:kms&kmskeyid=alias/ingest", ""},
		{"s3://knowledge?regoin=eu-west-1", `s3:// takes no option "regoin"`},
		{"s3://knowledge?role=arn:aws:iam::1:role/x", `s3:// takes no option "role"`},
		{"s3://knowledge?use_path_style=yes", `use_path_style="yes"`},
		{"s3://knowledge?ssetype=rot13", `ssetype="rot13"`},
		{"s3://knowledge?endpoint=127.0.0.1:9000", "option endpoint"},
		{"s3://knowledge?endpoint=http://minio:s3cr3t@127.0.0.1:9000", ""},
		{"s3://knowledge?endpoint=ftp://minio:s3cr3t@127.0.0.1:9000", "option endpoint"},
		{"s3:///ocean", "names no bucket"},
		{"file:///srv/knowledge?create_dir=1", ""},
		{"file:///srv/knowledge?metadata=skip", `file:// takes no option "metadata"`},
		{"file://host/srv/knowledge", "no host"},
		{"mem://knowledge?x=1", `mem:// takes no option "x"`},
		{"ftp://knowledge/ocean", "no object store takes ftp://"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			o, err := bucket.OpenObjects(context.Background(), tt.url)
			if err == nil {
				o.Close()
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("got %v, want it opened", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("got %v, want an error with %q", err, tt.wantErr)
			case err != nil && strings.Contains(err.Error(), "s3cr3t"):
				t.Errorf("got %v: the endpoint's password printed", err)
			}
		})
	}
}

// TestFolderWrittenByGocloud: a file:// prefix gocloud.dev's fileblob wrote
// (an .attrs file beside each object) reads as it did: the attributes are
// not objects, and go with the object they describe, so a pruned snapshot
// leaves no folder behind. A write in flight is no object either.
func TestFolderWrittenByGocloud(t *testing.T) {
	dir := t.TempDir()
	files := []string{"latest.json", "latest.json.attrs", "20261201T020000Z-0123456789ab/manifest.json", "20261201T020000Z-0123456789ab/manifest.json.attrs", ".ingest-tmp-123"}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := raw(t, "file://"+filepath.ToSlash(dir))
	if got, want := list(t, o, "", ""), []string{"20261201T020000Z-0123456789ab/manifest.json", "latest.json"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if err := o.Delete(context.Background(), "20261201T020000Z-0123456789ab/manifest.json"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "20261201T020000Z-0123456789ab")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the snapshot's folder is left after its last object went: %v", err)
	}
	if _, err := o.Get(context.Background(), "../escape"); err == nil {
		t.Errorf("a key outside the folder was read")
	}
}

// TestS3NoSuchBucket: a URL naming a bucket that is not there is an error
// saying so, not a prefix where nothing was published yet.
func TestS3NoSuchBucket(t *testing.T) {
	s := open(t, strings.Replace(fakeS3(t), "s3://knowledge/", "s3://missing/", 1))
	if l, err := s.ReadLatest(context.Background()); err == nil || !strings.Contains(err.Error(), "bucket does not exist") {
		t.Errorf("got %+v, %v; want the missing bucket named", l, err)
	}
}
