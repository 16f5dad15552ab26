//go:build unix && !linux && !darwin

package publish

import "syscall"

func signalZero(pid int) error { return syscall.Kill(pid, 0) }
