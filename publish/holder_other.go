//go:build !linux && !darwin && !windows

package publish

import (
	"errors"
	"syscall"
)

// processStart says whether a process runs (signal 0 reaches it, or is
// refused); its start time is not asked for here.
func processStart(pid int) (string, bool) {
	return "", !errors.Is(signalZero(pid), syscall.ESRCH)
}
