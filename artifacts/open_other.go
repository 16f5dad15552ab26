//go:build !unix

package artifacts

// openNonBlocking is not needed where a folder cannot hold a named pipe
// (Windows keeps them under \\.\pipe\).
const openNonBlocking = 0
