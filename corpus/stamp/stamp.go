// Package stamp tells whether a file changed without reading it: its
// stamp, what its metadata says of its bytes.
package stamp

import (
	"fmt"
	"io/fs"
	"time"
)

// A Stamp is what a file's metadata says of its bytes, as restic and git
// read a tree they have seen: its size, modification and change times,
// device and inode. A file whose stamp is the one recorded when its bytes
// were hashed is taken to hold those bytes, and is not read again:
// writing a file sets its change time, which no tool sets back (a size
// and a modification time restored, touch -r, rsync -t, are not enough),
// and a file replaced is another inode. A stamp means nothing on another
// machine or copy of the corpus, where every file reads as new.
//
// It is "" where the platform gives no change time or inode, and for a
// file changed in the second before it was read: a change within the same
// clock tick could leave its stamp as it was (git's racily clean files).
type Stamp string

// Settle is how long a file must have been left alone for its stamp to
// count.
const Settle = time.Second

// Of is the stamp of the file info describes, read at now.
func Of(info fs.FileInfo, now time.Time) Stamp {
	changed, dev, ino, ok := changeTime(info)
	if !ok || now.Sub(changed) < Settle || now.Sub(info.ModTime()) < Settle {
		return ""
	}
	return Stamp(fmt.Sprintf("%d:%d:%d:%d:%d", info.Size(), info.ModTime().UnixNano(), changed.UnixNano(), dev, ino))
}
