// Command image builds ingest's OCI image without a container daemon:
// static binaries from this checkout, one layer (the binary, the build
// machine's CA certificates, a non-root user), every timestamp the
// commit's, so the same commit builds to the same digest. just image and
// .ci/image.sh run it.
//
//	cd .ci/image && go run . build --out DIR [--src CHECKOUT] [--platforms linux/amd64,linux/arm64] [--push REGISTRY/NAME:TAG] [--pin FILE]
//	cd .ci/image && go run . extract --layout DIR/oci --to ROOT [--platform linux/amd64]
//
// It is a module of its own, so the checkout's go.mod, and a go test of
// it, never download the image tooling (go-containerregistry).
//
// build writes DIR/oci (an OCI image layout), DIR/ingest.tar (docker load
// and podman load read it), DIR/digest, and with --push the image by digest
// to --pin (deploy/kubernetes/image, which run.sh reads).
package main

import (
	"debug/buildinfo"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"ingest-ci/image/ociimage"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: image build|extract [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "build":
		err = build(os.Args[2:])
	case "extract":
		err = extract(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: build or extract", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func build(args []string) error {
	fs := flag.NewFlagSet("build", flag.ExitOnError)
	out := fs.String("out", "", "a new folder for the image (oci/, ingest.tar, digest)")
	src := fs.String("src", "../..", "the ingest checkout whose ./cmd/ingest is built (this module sits in its .ci/image)")
	platforms := fs.String("platforms", "linux/"+runtime.GOARCH, "comma-separated linux/ARCH list")
	source := fs.String("source", "https://github.com/ocean-safety/ingest", "the org.opencontainers.image.source label")
	ca := fs.String("ca", "/etc/ssl/certs/ca-certificates.crt", "the CA bundle to ship (Debian's ca-certificates)")
	push := fs.String("push", "", "push to REGISTRY/NAME:TAG (never latest) and print it by digest")
	pin := fs.String("pin", "", "with --push: write the image by digest to this file")
	fs.Parse(args)
	if *out == "" {
		return errors.New("build needs --out DIR")
	}
	if _, err := os.Stat(*out); err == nil {
		return fmt.Errorf("%s exists; give a new folder", *out)
	}
	spec := ociimage.Spec{Binaries: map[string]string{}, CACerts: *ca, Source: *source}
	for _, p := range strings.Split(*platforms, ",") {
		goos, arch, ok := strings.Cut(p, "/")
		if !ok || goos != "linux" {
			return fmt.Errorf("platform %q: want linux/ARCH", p)
		}
		bin, err := filepath.Abs(filepath.Join(*out, "bin", goos+"-"+arch, "ingest"))
		if err != nil {
			return err
		}
		// Static, no paths of this machine, the VCS stamp kept: the same
		// commit and toolchain give the same bytes.
		cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=true", "-ldflags=-s -w", "-o", bin, "./cmd/ingest")
		cmd.Dir = *src
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+arch)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build for %s: %w", p, err)
		}
		spec.Binaries[p] = bin
		if err := stamp(&spec, bin); err != nil {
			return err
		}
	}
	idx, err := ociimage.Build(spec)
	if err != nil {
		return err
	}
	if err := ociimage.WriteLayout(filepath.Join(*out, "oci"), idx); err != nil {
		return err
	}
	first := strings.Split(*platforms, ",")[0]
	if err := ociimage.WriteTarball(filepath.Join(*out, "ingest.tar"), "ingest:"+shortRev(spec.Revision), idx, first); err != nil {
		return err
	}
	d, err := idx.Digest()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "digest"), []byte(d.String()+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Printf("image %s: ingest %s, revision %s, %s → %s\n", d, spec.Version, spec.Revision, *platforms, *out)
	if *push == "" {
		return nil
	}
	ref, err := ociimage.Push(*push, idx)
	if err != nil {
		return err
	}
	fmt.Println("pushed", ref)
	if *pin != "" {
		return os.WriteFile(*pin, []byte(ref+"\n"), 0o644)
	}
	return nil
}

// stamp takes the revision, its time and the version from the binary's
// build information: the labels say what the binary says.
func stamp(spec *ociimage.Spec, bin string) error {
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		return err
	}
	var at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			spec.Revision = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if spec.Revision == "" || at == "" {
		return errors.New("the binary has no VCS stamp: build from a git checkout")
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return err
	}
	spec.Created = t
	spec.Version = "0.1.0-dev+" + shortRev(spec.Revision)
	if dirty {
		spec.Version += ".dirty"
		fmt.Fprintln(os.Stderr, "image: the tree has uncommitted changes: this image is not the commit's")
	}
	return nil
}

func shortRev(r string) string {
	if len(r) > 12 {
		return r[:12]
	}
	return r
}

func extract(args []string) error {
	fs := flag.NewFlagSet("extract", flag.ExitOnError)
	dir := fs.String("layout", "", "an OCI image layout (build's DIR/oci)")
	to := fs.String("to", "", "the folder to unpack the image's root into")
	platform := fs.String("platform", "linux/"+runtime.GOARCH, "which image of the index")
	fs.Parse(args)
	if *dir == "" || *to == "" {
		return errors.New("extract needs --layout and --to")
	}
	idx, err := ociimage.ReadLayout(*dir)
	if err != nil {
		return err
	}
	return ociimage.Extract(idx, *platform, *to)
}
