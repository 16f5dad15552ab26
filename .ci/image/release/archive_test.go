package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var testFiles = []File{
	{Name: "ingest", Mode: 0o755, Body: []byte("\x7fELF binary")},
	{Name: "LICENSE", Mode: 0o644, Body: []byte("Apache License\n")},
}

// TestArchiveReproducible: the same files make the same bytes, written at
// another moment; they read back as written, with their modes and the
// commit's time.
func TestArchiveReproducible(t *testing.T) {
	mtime := time.Date(2026, 12, 1, 2, 0, 0, 0, time.FixedZone("BRT", -3*3600))
	for _, name := range []string{"ingest_1.2.0_linux_amd64.tar.gz", "ingest_1.2.0_windows_arm64.zip"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a-"+name), filepath.Join(dir, "b-"+name)
			if err := WriteArchive(a, "ingest_1.2.0", testFiles, mtime); err != nil {
				t.Fatal(err)
			}
			time.Sleep(1100 * time.Millisecond) // an archive that read the clock would differ now
			if err := WriteArchive(b, "ingest_1.2.0", testFiles, mtime); err != nil {
				t.Fatal(err)
			}
			ab, _ := os.ReadFile(a)
			bb, _ := os.ReadFile(b)
			if !bytes.Equal(ab, bb) {
				t.Errorf("two archives of the same files differ")
			}
			got, err := ReadArchive(a)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range testFiles {
				if !bytes.Equal(got[f.Name], f.Body) {
					t.Errorf("%s: got %q, want %q", f.Name, got[f.Name], f.Body)
				}
			}
			if len(got) != len(testFiles) {
				t.Errorf("got %d files, want %d", len(got), len(testFiles))
			}
			for _, h := range headers(t, a) {
				if !h.ModTime.Equal(mtime) || h.Mode != modes[h.Name] {
					t.Errorf("%s: got time %v, mode %o; want %v, %o", h.Name, h.ModTime, h.Mode, mtime, modes[h.Name])
				}
			}
		})
	}
}

var modes = map[string]int64{"ingest_1.2.0/": 0o755, "ingest_1.2.0/ingest": 0o755, "ingest_1.2.0/LICENSE": 0o644}

type header struct {
	Name    string
	Mode    int64
	ModTime time.Time
}

// headers are the archive's entries as an unpacker sees them.
func headers(t *testing.T, path string) []header {
	t.Helper()
	b, _ := os.ReadFile(path)
	var hs []header
	if filepath.Ext(path) == ".zip" {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			hs = append(hs, header{f.Name, int64(f.Mode().Perm()), f.Modified})
		}
		return hs
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !zr.ModTime.IsZero() || zr.Name != "" {
		t.Errorf("gzip header: time %v, name %q; want none", zr.ModTime, zr.Name)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" {
			t.Errorf("%s: owner %d:%d %q, want root by number", h.Name, h.Uid, h.Gid, h.Uname)
		}
		hs = append(hs, header{h.Name, h.Mode, h.ModTime})
	}
	return hs
}

// TestSums: SHA256SUMS lists every file by name, as sha256sum -c reads it,
// and Verify catches a changed file.
func TestSums(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.zip"), []byte("b"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.tar.gz"), []byte("a"), 0o644)
	if err := writeSums(dir); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, SumsFile))
	want := "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb  a.tar.gz\n" +
		"3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d  b.zip\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if err := Verify(dir, "a.tar.gz"); err != nil {
		t.Errorf("verify a.tar.gz: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "a.tar.gz"), []byte("A"), 0o644)
	if err := Verify(dir, "a.tar.gz"); err == nil {
		t.Errorf("a changed a.tar.gz verified, want an error")
	}
	if err := Verify(dir, "c.zip"); err == nil {
		t.Errorf("a file not in %s verified, want an error", SumsFile)
	}
}
