package stamp

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime is the change time, device and inode of the file info
// describes.
func changeTime(info fs.FileInfo) (time.Time, uint64, uint64, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, 0, 0, false
	}
	return time.Unix(st.Ctim.Unix()), uint64(st.Dev), uint64(st.Ino), true // Dev and Ino are narrower on some architectures
}
