package ociimage

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

func testSpec(t *testing.T) Spec {
	t.Helper()
	files := Files{Binary: []byte("#!/bin/sh\necho ingest\n"),
		Docs: map[string][]byte{"LICENSE": []byte("Apache License\n"), "sbom.cdx.json": []byte(`{"bomFormat": "CycloneDX"}`)}}
	return Spec{Platforms: map[string]Files{"linux/amd64": files, "linux/arm64": files},
		Created: time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC), Source: "https://github.com/ocean-safety/ingest", Revision: "a40ae3170ab70f1a47837e926cf7ad06b550dc3d", Version: "0.1.0-dev+a40ae3170ab7"}
}

// TestReproducible: the same inputs build the same digest, wherever and
// whenever they are built; another commit time is another digest.
func TestReproducible(t *testing.T) {
	spec := testSpec(t)
	a, err := Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // a build that read the clock would differ now
	b, _ := Build(spec)
	da, _ := a.Digest()
	db, _ := b.Digest()
	if da != db {
		t.Errorf("two builds: got %s and %s, want one digest", da, db)
	}
	spec.Created = spec.Created.Add(time.Second)
	c, _ := Build(spec)
	if dc, _ := c.Digest(); dc == da {
		t.Errorf("another commit time gave the same digest %s", dc)
	}
	spec.Created = spec.Created.Add(-time.Second)
	spec.Platforms["linux/amd64"].Docs["sbom.cdx.json"] = []byte("{}")
	d, _ := Build(spec)
	if dd, _ := d.Digest(); dd == da {
		t.Errorf("another SBOM gave the same digest %s", dd)
	}
	// Written and read back as a layout, the index keeps its digest.
	dir := filepath.Join(t.TempDir(), "oci")
	if err := WriteLayout(dir, a); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLayout(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := back.Digest(); d != da {
		t.Errorf("layout read back as %s, want %s", d, da)
	}
	if err := WriteLayout(dir, a); err == nil {
		t.Errorf("a layout written over another, want it refused")
	}
}

// TestImageShape: a non-root user, the binary as entrypoint, the CA
// bundle where Go's TLS looks, the licences and SBOM in DocDir, the OCI
// labels, every file's time the commit's, and each platform of the index.
func TestImageShape(t *testing.T) {
	spec := testSpec(t)
	idx, err := Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := idx.IndexManifest()
	if len(m.Manifests) != 2 || m.Manifests[0].Platform.Architecture != "amd64" || m.Manifests[1].Platform.Architecture != "arm64" {
		t.Fatalf("got manifests %+v, want linux/amd64 and linux/arm64", m.Manifests)
	}
	img, err := Image(idx, "linux/amd64")
	if err != nil {
		t.Fatal(err)
	}
	cf, _ := img.ConfigFile()
	c := cf.Config
	for _, check := range []struct{ what, got, want string }{
		{"user", c.User, "65532:65532"},
		{"entrypoint", strings.Join(c.Entrypoint, " "), BinaryPath},
		{"source label", c.Labels["org.opencontainers.image.source"], spec.Source},
		{"revision label", c.Labels["org.opencontainers.image.revision"], spec.Revision},
		{"version label", c.Labels["org.opencontainers.image.version"], spec.Version},
		{"created label", c.Labels["org.opencontainers.image.created"], "2026-12-01T02:00:00Z"},
		{"licenses label", c.Labels["org.opencontainers.image.licenses"], "Apache-2.0"},
		{"created", cf.Created.UTC().Format(time.RFC3339), "2026-12-01T02:00:00Z"},
		{"os/arch", cf.OS + "/" + cf.Architecture, "linux/amd64"},
	} {
		if check.got != check.want {
			t.Errorf("%s: got %q, want %q", check.what, check.got, check.want)
		}
	}
	if !strings.Contains(strings.Join(c.Env, " "), "SSL_CERT_FILE="+CAPath) {
		t.Errorf("env %v, want SSL_CERT_FILE=%s", c.Env, CAPath)
	}
	root := t.TempDir()
	if err := Extract(idx, "linux/amd64", root); err != nil {
		t.Fatal(err)
	}
	for path, mode := range map[string]os.FileMode{BinaryPath: 0o755, CAPath: 0o644, "/etc/passwd": 0o644,
		DocDir + "/LICENSE": 0o644, DocDir + "/sbom.cdx.json": 0o644} {
		info, err := os.Stat(filepath.Join(root, path))
		if err != nil || info.Mode().Perm() != mode {
			t.Errorf("%s: got %v, %v; want a file of mode %v", path, info, err, mode)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, DocDir, "sbom.cdx.json")); string(b) != `{"bomFormat": "CycloneDX"}` {
		t.Errorf("the SBOM in the image: got %q, want the one given", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "etc/passwd")); !strings.Contains(string(b), "nonroot:x:65532:65532:nonroot:"+Home) {
		t.Errorf("/etc/passwd: %q, want the nonroot user", b)
	}
	layers, _ := img.Layers()
	if len(layers) != 1 {
		t.Fatalf("got %d layers, want 1", len(layers))
	}
}

// TestPush pushes to a registry (in memory) under a tag and gets the image
// back by digest; latest alone is refused.
func TestPush(t *testing.T) {
	srv := httptest.NewServer(registry.New())
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	idx, err := Build(testSpec(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Push(host+"/ocean-safety/ingest:latest", idx); err == nil || !strings.Contains(err.Error(), "latest") {
		t.Errorf("push as latest: got %v, want it refused", err)
	}
	ref, err := Push(host+"/ocean-safety/ingest:0.1.0-dev-a40ae3170ab7", idx)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := idx.Digest()
	if !strings.HasSuffix(ref, "@"+want.String()) {
		t.Fatalf("pushed %s, want it by digest %s", ref, want)
	}
	d, err := name.NewDigest(ref)
	if err != nil {
		t.Fatal(err)
	}
	got, err := remote.Index(d)
	if err != nil {
		t.Fatal(err)
	}
	if gd, _ := got.Digest(); gd != want {
		t.Errorf("pulled %s, want %s", gd, want)
	}
}
