package ociimage

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image's user and paths: what the Kubernetes example and a reader of
// the image rely on.
const (
	UID        = 65532 // distroless's nonroot: no user on a node has it
	Home       = "/home/nonroot"
	BinaryPath = "/usr/local/bin/ingest"
	DocDir     = "/usr/share/doc/ingest" // where a distribution puts a package's licence and notices
	CAPath     = "/etc/ssl/certs/ca-certificates.crt"
)

// Spec is what an image is built from.
type Spec struct {
	// Platforms are each platform's files ("linux/amd64"): a release's.
	Platforms map[string]Files
	// Created is every timestamp in the image: the commit's time.
	Created time.Time
	// Source, Revision and Version become the OCI labels.
	Source, Revision, Version string
}

// Files are what a platform's image holds besides its user and CA bundle.
type Files struct {
	// Binary is the static ingest binary.
	Binary []byte
	// Docs go to DocDir by name: the licences, the notices and the SBOM
	// that come with the binary.
	Docs map[string][]byte
}

// Build returns the image index of spec's platforms, sorted by platform.
func Build(spec Spec) (v1.ImageIndex, error) {
	if len(spec.Platforms) == 0 {
		return nil, fmt.Errorf("no binary to put in the image")
	}
	ca, _ := CABundle()
	platforms := make([]string, 0, len(spec.Platforms))
	for p := range spec.Platforms {
		platforms = append(platforms, p)
	}
	sort.Strings(platforms)
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	for _, p := range platforms {
		img, plat, err := platformImage(spec, p, ca)
		if err != nil {
			return nil, err
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: plat}})
	}
	return idx, nil
}

// platformImage is the image of one platform's binary.
func platformImage(spec Spec, platform string, ca []byte) (v1.Image, *v1.Platform, error) {
	osName, arch, ok := strings.Cut(platform, "/")
	if !ok || osName != "linux" {
		return nil, nil, fmt.Errorf("platform %q: want linux/ARCH", platform)
	}
	layerTar, err := rootfs(spec.Platforms[platform], ca, spec.Created)
	if err != nil {
		return nil, nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(layerTar)), nil },
		tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, nil, err
	}
	created := v1.Time{Time: spec.Created.UTC()}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{Layer: layer, MediaType: types.OCILayer,
		History: v1.History{Created: created, CreatedBy: "ingest ci/image: " + BinaryPath + ", " + DocDir + " (licences, SBOM), CA certificates (" + caModule + "), user nonroot", Comment: spec.Revision}})
	if err != nil {
		return nil, nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture, cf.Created = osName, arch, created
	cf.Config = v1.Config{
		User:       fmt.Sprintf("%d:%d", UID, UID),
		Entrypoint: []string{BinaryPath},
		WorkingDir: Home,
		Env: []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + Home, "SSL_CERT_FILE=" + CAPath,
			"INGEST_WORK_DIR=" + Home + "/work"}, // a writable default; a volume over it in a Job
		Labels: map[string]string{
			"org.opencontainers.image.title":       "ingest",
			"org.opencontainers.image.description": "turns a Markdown knowledge corpus into a retrieval-ready Parquet snapshot",
			"org.opencontainers.image.source":      spec.Source,
			"org.opencontainers.image.revision":    spec.Revision,
			"org.opencontainers.image.version":     spec.Version,
			"org.opencontainers.image.licenses":    "Apache-2.0",
			"org.opencontainers.image.created":     spec.Created.UTC().Format(time.RFC3339),
		},
	}
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		return nil, nil, err
	}
	return img, &v1.Platform{OS: osName, Architecture: arch}, nil
}

// entry is one file or folder of the image's root.
type entry struct {
	name string
	mode int64
	uid  int
	body []byte
	dir  bool
}

// rootfs is the layer's tar: the same bytes for the same inputs (sorted,
// every time created, owners by number).
func rootfs(files Files, ca []byte, created time.Time) ([]byte, error) {
	entries := []entry{
		{name: "etc/", mode: 0o755, dir: true},
		{name: "etc/group", mode: 0o644, body: []byte(fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", UID))},
		{name: "etc/passwd", mode: 0o644, body: []byte(fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:%s:/sbin/nologin\n", UID, UID, Home))},
		{name: "etc/ssl/", mode: 0o755, dir: true},
		{name: "etc/ssl/certs/", mode: 0o755, dir: true},
		{name: strings.TrimPrefix(CAPath, "/"), mode: 0o644, body: ca},
		{name: "home/", mode: 0o755, dir: true},
		{name: strings.TrimPrefix(Home, "/") + "/", mode: 0o755, uid: UID, dir: true},
		{name: "tmp/", mode: 0o1777, dir: true},
		{name: "usr/", mode: 0o755, dir: true},
		{name: "usr/local/", mode: 0o755, dir: true},
		{name: "usr/local/bin/", mode: 0o755, dir: true},
		{name: strings.TrimPrefix(BinaryPath, "/"), mode: 0o755, body: files.Binary},
		{name: "usr/share/", mode: 0o755, dir: true},
		{name: "usr/share/doc/", mode: 0o755, dir: true},
		{name: strings.TrimPrefix(DocDir, "/") + "/", mode: 0o755, dir: true},
	}
	for name, body := range files.Docs {
		if name == "" || strings.Contains(name, "/") {
			return nil, fmt.Errorf("document %q: want a file name", name)
		}
		entries = append(entries, entry{name: strings.TrimPrefix(DocDir, "/") + "/" + name, mode: 0o644, body: body})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.uid, ModTime: created.UTC(), Format: tar.FormatPAX, Typeflag: tar.TypeReg, Size: int64(len(e.body))}
		if e.dir {
			h.Typeflag, h.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.body); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
