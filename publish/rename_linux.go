package publish

import "golang.org/x/sys/unix"

// exchange swaps the folders at a and b in one atomic step (renameat2 with
// RENAME_EXCHANGE): a reader of b sees the old snapshot or the new, never
// neither. File systems without it answer EINVAL, and commitOut falls back
// to two renames.
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
