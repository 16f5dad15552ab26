package artifacts

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// A snapshot's files are read only as regular files, and never further than
// they can hold: a chunks.parquet that is a link to /dev/zero, a report.json
// that is a named pipe, a manifest.json that is a terminal would otherwise
// make a reader (verify, sync, the next run) wait or read forever. A file
// is opened without blocking (a pipe with no writer opens at once), then
// checked for what it is, and read up to the size it had when opened.

// maxManifestBytes bounds a manifest read: a few kilobytes in practice (its
// counts are per kind, language and element), never megabytes.
const maxManifestBytes = 16 << 20

// maxReportBytes bounds a report read: every diagnostic of a large corpus
// fits many times over.
const maxReportBytes = 512 << 20

// OpenRegular opens path for reading if it is a regular file (a link is
// followed to what it names) and returns it with its size. Anything else (a
// folder, a named pipe, a device, a socket) is refused, naming what it is.
func OpenRegular(path string) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlocking, 0)
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, 0, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	return f, info.Size(), nil
}

// NotRegularError is a snapshot file that is not a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, fileKind(e.Mode))
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// ReadRegular reads the regular file at path whole, refusing one over limit
// bytes.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, size, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > limit {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d a reader takes", path, size, limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s grew past the %d bytes a reader takes", path, limit)
	}
	return b, nil
}

// SizeError is a snapshot file whose size is not the one its manifest
// declares: it is refused before a byte of it is read, so a chunks.parquet
// replaced by a sparse 100 GB file costs a stat, not minutes of hashing.
type SizeError struct {
	Path      string
	Got, Want int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("%s is %d bytes, its manifest says %d: not read", e.Path, e.Got, e.Want)
}

// declaredFile is a regular file read through a window of the size its
// manifest declares.
type declaredFile struct {
	*io.SectionReader
	f *os.File
}

func (d declaredFile) Close() error { return d.f.Close() }

// OpenDeclared opens the regular file at path that a manifest declares
// want bytes long. A file of another size is a *SizeError, found by its
// size alone; the file returned reads no further than want bytes, whatever
// the file grows to after it was opened.
func OpenDeclared(path string, want int64) (interface {
	io.ReadSeeker
	io.ReaderAt
	io.Closer
}, error) {
	f, size, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	if size != want {
		f.Close()
		return nil, &SizeError{Path: path, Got: size, Want: want}
	}
	return declaredFile{io.NewSectionReader(f, 0, want), f}, nil
}

// DescribeDeclared is Describe of a file its manifest declares want bytes
// long: one of another size is a *SizeError and is not read (see
// OpenDeclared).
func DescribeDeclared(path string, want int64) (FileInfo, error) {
	f, err := OpenDeclared(path, want)
	if err != nil {
		return FileInfo{}, err
	}
	return describe(path, f)
}

// boundedFile is what Describe reads: the regular file's bytes up to one
// past the size it had when opened, so a file that keeps growing is read
// once and told apart from its manifest by its size.
func boundedFile(path string) (io.ReadCloser, error) {
	f, size, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(f, size+1), f}, nil
}

// Describe returns a file's size and SHA-256, for the manifest. Only a
// regular file is read, and no further than its size when opened (see
// OpenRegular).
func Describe(path string) (FileInfo, error) {
	f, err := boundedFile(path)
	if err != nil {
		return FileInfo{}, err
	}
	return describe(path, f)
}

// describe hashes what f reads of the file at path, and closes it.
func describe(path string, f io.ReadCloser) (FileInfo, error) {
	defer f.Close()
	h := sha256.New()
	n, err := io.CopyBuffer(h, f, make([]byte, 1<<20)) // a read a megabyte: a snapshot's chunks.parquet is hundreds
	if err != nil {
		return FileInfo{}, fmt.Errorf("hash %s: %w", path, err)
	}
	return FileInfo{Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
