//go:build !linux

package publish

import "errors"

// exchange has no atomic form here (macOS has renamex_np, Windows none that
// swaps folders): commitOut falls back to two renames.
func exchange(a, b string) error { return errors.ErrUnsupported }
