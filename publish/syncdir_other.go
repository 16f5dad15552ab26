//go:build !windows

package publish

import (
	"errors"
	"os"
	"syscall"
)

// SyncDir makes a folder's entries durable: a rename is only as safe as the
// folder that records it. Some file systems cannot sync a folder (EINVAL).
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
