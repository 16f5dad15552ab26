//go:build unix

package artifacts

import "syscall"

// openNonBlocking opens a named pipe without waiting for a writer; regular
// files ignore it.
const openNonBlocking = syscall.O_NONBLOCK
