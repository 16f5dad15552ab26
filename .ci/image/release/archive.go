package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// File is a file of an archive.
type File struct {
	Name string
	Mode int64
	Body []byte
}

// WriteArchive writes files into a new archive at path (a .zip or a
// .tar.gz), inside one folder, in the order given, every time mtime and
// every owner root: the same files give the same bytes (the deflate
// stream is this Go's, which the release pins).
func WriteArchive(path, folder string, files []File, mtime time.Time) error {
	var buf bytes.Buffer
	var err error
	switch {
	case strings.HasSuffix(path, ".zip"):
		err = writeZip(&buf, folder, files, mtime.UTC())
	case strings.HasSuffix(path, ".tar.gz"):
		err = writeTarGz(&buf, folder, files, mtime.UTC())
	default:
		err = errors.New("want a .zip or .tar.gz name")
	}
	if err != nil {
		return fmt.Errorf("archive %s: %w", path, err)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func writeTarGz(w io.Writer, folder string, files []File, mtime time.Time) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression) // no name, no time in the header
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: folder + "/", Mode: 0o755, ModTime: mtime}); err != nil {
		return err
	}
	for _, f := range files {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: folder + "/" + f.Name, Mode: f.Mode, Size: int64(len(f.Body)), ModTime: mtime}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.Body); err != nil {
			return err
		}
	}
	return errors.Join(tw.Close(), zw.Close())
}

func writeZip(w io.Writer, folder string, files []File, mtime time.Time) error {
	zw := zip.NewWriter(w)
	dir := &zip.FileHeader{Name: folder + "/", Method: zip.Store, Modified: mtime}
	dir.SetMode(os.ModeDir | 0o755)
	if _, err := zw.CreateHeader(dir); err != nil {
		return err
	}
	for _, f := range files {
		h := &zip.FileHeader{Name: folder + "/" + f.Name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(os.FileMode(f.Mode))
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.Body); err != nil {
			return err
		}
	}
	return zw.Close()
}

// ReadArchive returns the regular files of the archive at path by their
// names inside its folder.
func ReadArchive(path string) (map[string][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	add := func(name string, r io.Reader) error {
		_, rest, ok := strings.Cut(name, "/")
		if !ok || rest == "" || strings.Contains(rest, "/") {
			return fmt.Errorf("%s: %s is not a file of the archive's folder", path, name)
		}
		body, err := io.ReadAll(r)
		files[rest] = body
		return err
	}
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return nil, err
		}
		for _, f := range zr.File {
			if f.Mode().IsDir() {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			err = errors.Join(add(f.Name, rc), rc.Close())
			if err != nil {
				return nil, err
			}
		}
		return files, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag == tar.TypeReg {
			if err := add(h.Name, tr); err != nil {
				return nil, err
			}
		}
	}
}

// SumsFile lists the SHA-256 of each file of a release, as sha256sum -c
// reads it.
const SumsFile = "SHA256SUMS"

// writeSums writes dir's SumsFile: every other file in it, by name.
func writeSums(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && e.Name() != SumsFile {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var buf bytes.Buffer
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(&buf, "%s  %s\n", hex.EncodeToString(sum[:]), n)
	}
	return os.WriteFile(filepath.Join(dir, SumsFile), buf.Bytes(), 0o644)
}

// Verify checks the file name of the release in dir against its SumsFile.
func Verify(dir, name string) error {
	sums, err := os.ReadFile(filepath.Join(dir, SumsFile))
	if err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	got := hex.EncodeToString(sum[:])
	for _, line := range strings.Split(string(sums), "\n") {
		if want, n, ok := strings.Cut(line, "  "); ok && n == name {
			if want != got {
				return fmt.Errorf("%s: SHA-256 %s, but %s says %s", name, got, SumsFile, want)
			}
			return nil
		}
	}
	return fmt.Errorf("%s is not in %s", name, SumsFile)
}
