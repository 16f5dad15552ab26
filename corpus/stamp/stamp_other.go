//go:build !linux

package stamp

import (
	"io/fs"
	"time"
)

// changeTime gives no stamp off Linux: every file is read and hashed.
func changeTime(fs.FileInfo) (time.Time, uint64, uint64, bool) { return time.Time{}, 0, 0, false }
