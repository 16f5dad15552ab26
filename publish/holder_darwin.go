package publish

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// szomb is the state of a process that has ended and waits to be reaped
// (SZOMB of <sys/proc.h>).
const szomb = 5

// processStart returns a process's start time (from the kernel's process
// table) and whether it runs.
func processStart(pid int) (string, bool) {
	if err := unix.Kill(pid, 0); errors.Is(err, unix.ESRCH) {
		return "", false
	}
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return "", true
	}
	if kp.Proc.P_stat == szomb {
		return "", false
	}
	t := kp.Proc.P_starttime
	return fmt.Sprintf("%d.%06d", t.Sec, t.Usec), true
}
