package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteNew writes a file that must not exist yet (unless force), whole or
// not at all: the starter file of ingest init. A file already there is an
// error wrapping fs.ErrExist.
func WriteNew(path string, b []byte, force bool) error {
	if _, err := os.Lstat(path); err == nil && !force {
		return &fs.PathError{Op: "write", Path: path, Err: fs.ErrExist}
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	err = errors.Join(err, tmp.Sync(), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
