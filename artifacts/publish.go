package artifacts

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Staging is a snapshot being written: a temporary folder beside its target,
// swapped into place by Commit only when complete, so a failed or
// interrupted run leaves the previous snapshot untouched.
type Staging struct {
	Dir string // write the snapshot's files here
	out string
}

// Stage creates the temporary folder for a snapshot that will be published at out.
func Stage(out string) (*Staging, error) {
	out = filepath.Clean(out)
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("stage %s: %w", out, err)
	}
	dir, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("stage %s: %w", out, err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // MkdirTemp makes it private; consumers read it
		return nil, fmt.Errorf("stage %s: %w", out, err)
	}
	return &Staging{Dir: dir, out: out}, nil
}

// Path is the staged path of a snapshot file.
func (s *Staging) Path(name string) string { return filepath.Join(s.Dir, name) }

// Commit publishes the staged folder at the target. Where the system can, the
// two folders are exchanged in one atomic rename (Linux renameat2); elsewhere
// the old folder is moved aside first. Either way the old snapshot is
// removed only after the new one is in place.
func (s *Staging) Commit() error {
	if err := syncDir(s.Dir); err != nil {
		return fmt.Errorf("publish %s: %w", s.out, err)
	}
	if _, err := os.Lstat(s.out); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(s.Dir, s.out); err != nil {
			return fmt.Errorf("publish %s: %w", s.out, err)
		}
		return syncDir(filepath.Dir(s.out))
	}
	if err := unix.Renameat2(unix.AT_FDCWD, s.Dir, unix.AT_FDCWD, s.out, unix.RENAME_EXCHANGE); err == nil {
		if err := syncDir(filepath.Dir(s.out)); err != nil {
			return fmt.Errorf("publish %s: %w", s.out, err)
		}
		return os.RemoveAll(s.Dir) // now the old snapshot
	}
	old := s.Dir + ".old"
	if err := os.Rename(s.out, old); err != nil {
		return fmt.Errorf("publish %s: %w", s.out, err)
	}
	if err := os.Rename(s.Dir, s.out); err != nil {
		_ = os.Rename(old, s.out) // put the previous snapshot back
		return fmt.Errorf("publish %s: %w", s.out, err)
	}
	if err := syncDir(filepath.Dir(s.out)); err != nil {
		return fmt.Errorf("publish %s: %w", s.out, err)
	}
	return os.RemoveAll(old)
}

// Abort removes the staged folder.
func (s *Staging) Abort() error { return os.RemoveAll(s.Dir) }

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, unix.EINVAL) {
		return err
	}
	return nil
}

// Describe returns a file's size and SHA-256, for the manifest.
func Describe(path string) (FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileInfo{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return FileInfo{}, fmt.Errorf("hash %s: %w", path, err)
	}
	return FileInfo{Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
