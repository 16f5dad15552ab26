//go:build unix

package artifacts

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, user and system: on a
// shared machine the comparable cost, where wall time counts other work.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
