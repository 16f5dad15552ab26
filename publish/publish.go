package publish

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// commitOut puts the staged folder dir at out. Where the system can, the
// two folders are exchanged in one atomic rename (Linux renameat2, see
// exchange); elsewhere it takes two renames: the old folder is moved aside
// (to dir + ".old"), then the new one into place, and the old one is put
// back if that fails. Between the two renames out does not exist for a
// moment; a crash there leaves the old snapshot at dir.old, which the next
// run's clean-up removes. Either way the old snapshot is removed only after
// the new one is in place.
func commitOut(dir, out string) error {
	if err := SyncDir(dir); err != nil {
		return fmt.Errorf("publish %s: %w", out, err)
	}
	if _, err := os.Lstat(out); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(dir, out); err != nil {
			return fmt.Errorf("publish %s: %w", out, err)
		}
		return SyncDir(filepath.Dir(out))
	}
	if err := exchange(dir, out); err == nil {
		if err := SyncDir(filepath.Dir(out)); err != nil {
			return fmt.Errorf("publish %s: %w", out, err)
		}
		return os.RemoveAll(dir) // now the old snapshot
	}
	old := dir + ".old"
	if err := os.Rename(out, old); err != nil {
		return fmt.Errorf("publish %s: %w", out, err)
	}
	if err := os.Rename(dir, out); err != nil {
		_ = os.Rename(old, out) // put the previous snapshot back
		return fmt.Errorf("publish %s: %w", out, err)
	}
	if err := SyncDir(filepath.Dir(out)); err != nil {
		return fmt.Errorf("publish %s: %w", out, err)
	}
	return os.RemoveAll(old)
}
