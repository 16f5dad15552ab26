package ociimage

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// WriteLayout writes idx as an OCI image layout in dir (which must not
// exist: a layout is never written over another).
func WriteLayout(dir string, idx v1.ImageIndex) error {
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("%s exists; an image layout is written to a new folder", dir)
	}
	_, err := layout.Write(dir, idx)
	return err
}

// Image is idx's image for platform ("linux/amd64").
func Image(idx v1.ImageIndex, platform string) (v1.Image, error) {
	m, err := idx.IndexManifest()
	if err != nil {
		return nil, err
	}
	for _, d := range m.Manifests {
		if d.Platform != nil && d.Platform.OS+"/"+d.Platform.Architecture == platform {
			return idx.Image(d.Digest)
		}
	}
	return nil, fmt.Errorf("no image for %s", platform)
}

// WriteTarball writes idx's image for platform as a tarball that docker
// load and podman load read, tagged ref.
func WriteTarball(path, ref string, idx v1.ImageIndex, platform string) error {
	img, err := Image(idx, platform)
	if err != nil {
		return err
	}
	tag, err := name.NewTag(ref)
	if err != nil {
		return err
	}
	return tarball.WriteToFile(path, tag, img)
}

// Push writes idx to the registry at ref (a repository and a tag), with the
// credentials of the usual keychain (~/.docker/config.json, credential
// helpers), and returns the reference by digest to deploy.
func Push(ref string, idx v1.ImageIndex) (string, error) {
	tag, err := name.NewTag(ref, name.StrictValidation)
	if err != nil {
		return "", fmt.Errorf("push %s: want REGISTRY/NAME:TAG: %w", ref, err)
	}
	if tag.TagStr() == "latest" {
		return "", errors.New("push: a tag other than latest, please: shards of one run must start one build, which a moving tag does not promise")
	}
	if err := remote.WriteIndex(tag, idx, remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
		return "", fmt.Errorf("push %s: %w", ref, err)
	}
	d, err := idx.Digest()
	if err != nil {
		return "", err
	}
	return tag.Context().Digest(d.String()).String(), nil
}

// Extract unpacks the image for platform into dir, as a runtime would lay
// its root out (regular files and folders only; no path leaves dir).
func Extract(idx v1.ImageIndex, platform, dir string) error {
	img, err := Image(idx, platform)
	if err != nil {
		return err
	}
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if rel, err := filepath.Rel(dir, p); err != nil || strings.HasPrefix(rel, "..") {
			return fmt.Errorf("%s leaves the folder", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o777)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if err = errors.Join(err, f.Close()); err != nil {
				return err
			}
		}
	}
}

// ReadLayout reads the image index of the layout in dir.
func ReadLayout(dir string) (v1.ImageIndex, error) {
	p, err := layout.FromPath(dir)
	if err != nil {
		return nil, err
	}
	return p.ImageIndex()
}
