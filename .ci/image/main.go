// Command image builds ingest's release and its OCI image from a clone of
// one commit, without a container daemon: static binaries in archives with
// their licences and SBOMs and SHA256SUMS (release), and the image of the
// linux archives (build): one layer (the binary, its licences and SBOM, a
// pinned CA bundle, a non-root user), every timestamp the commit's, so the
// same commit builds to the same bytes and digest on any machine.
// .ci/release.sh, .ci/image.sh, just release and just image run it, with
// the Go its go.mod's toolchain line names.
//
//	cd .ci/image && go run . release --src CHECKOUT --out DIR [--version V] [--platforms darwin/amd64,…]
//	cd .ci/image && go run . build --src CHECKOUT --out DIR [--version V] [--platforms linux/amd64,linux/arm64] [--push REGISTRY/NAME:TAG] [--pin FILE]
//	cd .ci/image && go run . extract --layout DIR/oci --to ROOT [--platform linux/amd64]
//
// It is a module of its own, so the checkout's go.mod, and a go test of
// it, never download the release tooling (go-containerregistry, the CA
// bundle's module).
//
// release writes DIR/ingest_V_OS_ARCH.tar.gz (.zip for windows) and
// DIR/ingest_V_OS_ARCH.cdx.json per platform, and DIR/SHA256SUMS. build
// writes DIR/release (the linux archives it is built from), DIR/oci (an OCI
// image layout), DIR/ingest.tar (docker load and podman load read it),
// DIR/digest, and with --push the image by digest to --pin
// (deploy/kubernetes/image, which run.sh reads).
package main

import (
	"bytes"
	"debug/buildinfo"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"ingest-ci/image/ociimage"
	"ingest-ci/image/release"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: image release|build|extract [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "release":
		err = releaseCmd(os.Args[2:])
	case "build":
		err = build(os.Args[2:])
	case "extract":
		err = extract(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: release, build or extract", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

// releaseFlags are the flags release and build share.
type releaseFlags struct {
	src, version, platforms, tools *string
}

func addReleaseFlags(fs *flag.FlagSet, platforms string) releaseFlags {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return releaseFlags{
		src:       fs.String("src", "../..", "the clone of the commit whose ./cmd/ingest is built (this module sits in its .ci/image)"),
		version:   fs.String("version", "", "the version (1.2.0); default: HEAD's v-tag, else 0.1.0-dev+REVISION"),
		platforms: fs.String("platforms", platforms, "comma-separated OS/ARCH list"),
		tools:     fs.String("tools", filepath.Join(cache, "ingest-ci"), "where cyclonedx-gomod is installed once"),
	}
}

// release builds the release rf describes into out.
func (rf releaseFlags) release(out string) (string, error) {
	tool, err := release.InstallSBOMTool(*rf.tools)
	if err != nil {
		return "", err
	}
	return release.Build(release.Spec{Src: *rf.src, Version: *rf.version, Platforms: strings.Split(*rf.platforms, ","),
		SBOMTool: tool, Log: os.Stderr}, out)
}

func releaseCmd(args []string) error {
	fs := flag.NewFlagSet("release", flag.ExitOnError)
	out := fs.String("out", "", "a new folder for the release")
	rf := addReleaseFlags(fs, strings.Join(release.Platforms, ","))
	fs.Parse(args)
	if *out == "" {
		return errors.New("release needs --out DIR")
	}
	v, err := rf.release(*out)
	if err != nil {
		return err
	}
	fmt.Printf("release %s: %s → %s\n", v, *rf.platforms, *out)
	return nil
}

func build(args []string) error {
	fs := flag.NewFlagSet("build", flag.ExitOnError)
	out := fs.String("out", "", "a new folder for the image (release/, oci/, ingest.tar, digest)")
	rf := addReleaseFlags(fs, "linux/"+runtime.GOARCH)
	source := fs.String("source", "https://github.com/ocean-safety/ingest", "the org.opencontainers.image.source label")
	push := fs.String("push", "", "push to REGISTRY/NAME:TAG (never latest) and print it by digest")
	pin := fs.String("pin", "", "with --push: write the image by digest to this file")
	fs.Parse(args)
	if *out == "" {
		return errors.New("build needs --out DIR")
	}
	if _, err := os.Stat(*out); err == nil {
		return fmt.Errorf("%s exists; give a new folder", *out)
	}
	platforms := strings.Split(*rf.platforms, ",")
	for _, p := range platforms {
		if !strings.HasPrefix(p, "linux/") {
			return fmt.Errorf("platform %q: want linux/ARCH", p)
		}
	}
	// The image holds the release's linux binaries and SBOMs, byte for byte.
	rel := filepath.Join(*out, "release")
	version, err := rf.release(rel)
	if err != nil {
		return err
	}
	spec := ociimage.Spec{Platforms: map[string]ociimage.Files{}, Source: *source, Version: version}
	for _, p := range platforms {
		name := release.ArchiveName(version, p)
		if err := release.Verify(rel, name); err != nil {
			return err
		}
		files, err := release.ReadArchive(filepath.Join(rel, name))
		if err != nil {
			return err
		}
		bin := files["ingest"]
		delete(files, "ingest")
		if err := stamp(&spec, bin); err != nil {
			return err
		}
		spec.Platforms[p] = ociimage.Files{Binary: bin, Docs: files}
	}
	if _, skipped := ociimage.CABundle(); len(skipped) > 0 {
		fmt.Fprintf(os.Stderr, "image: CA roots left out (trusted only until a date, which a PEM file cannot say): %s\n", strings.Join(skipped, ", "))
	}
	idx, err := ociimage.Build(spec)
	if err != nil {
		return err
	}
	if err := ociimage.WriteLayout(filepath.Join(*out, "oci"), idx); err != nil {
		return err
	}
	first := platforms[0]
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
	fmt.Printf("image %s: ingest %s, revision %s, %s → %s\n", d, spec.Version, spec.Revision, *rf.platforms, *out)
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

// stamp takes the revision and its time from the binary's build
// information: the labels say what the binary says.
func stamp(spec *ociimage.Spec, bin []byte) error {
	bi, err := buildinfo.Read(bytes.NewReader(bin))
	if err != nil {
		return err
	}
	var at string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			spec.Revision = s.Value
		case "vcs.time":
			at = s.Value
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
