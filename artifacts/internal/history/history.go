// Package history bounds a JSON-lines log that is carried from snapshot
// to snapshot (audit.jsonl): the newest runs are copied as they were, and
// what is dropped is one line that counts it and gives the SHA-256 of
// exactly the bytes dropped. A run is a stretch of lines of one trace_id.
package history

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
)

// Keep is how much history a copy keeps: the newest Runs runs, and of
// them no more than Bytes, cutting whole runs where it can (a newest run
// over Bytes alone loses its oldest lines).
type Keep struct {
	Runs  int
	Bytes int64
}

// Dropped is what a copy dropped: the trace of the run of the last line
// dropped, the whole runs, the lines and the bytes, and their SHA-256.
type Dropped struct {
	Trace  string
	Runs   int
	Lines  int
	Bytes  int64
	SHA256 string
}

// Event is the event of the line that stands for dropped history: it is
// not a run of its own when the log is read again.
const Event = "history_dropped"

// line is what a copy reads of a line.
type line struct {
	Trace string `json:"trace_id"`
	Event string `json:"event"`
}

// Copy copies the log r of size bytes to w within keep. When it drops
// history, it writes marker(what it dropped) first; kept sees each line
// copied. A last line without its newline gets one.
func Copy(w io.Writer, r io.ReaderAt, size int64, keep Keep, marker func(Dropped) []byte, kept func([]byte)) error {
	cut, drop, err := plan(io.NewSectionReader(r, 0, size), keep)
	if err != nil {
		return err
	}
	br := bufio.NewReader(io.NewSectionReader(r, 0, size))
	h := sha256.New()
	var off int64
	for {
		l, err := br.ReadBytes('\n')
		if len(l) > 0 {
			start := off
			off += int64(len(l))
			if start < cut {
				h.Write(l)
				drop.Lines++
				if off >= cut {
					drop.Bytes, drop.SHA256 = off, hex.EncodeToString(h.Sum(nil))
					if _, err := w.Write(marker(drop)); err != nil {
						return err
					}
				}
				continue
			}
			kept(l)
			if l[len(l)-1] != '\n' {
				l = append(l, '\n') // a log cut short: the next line still starts its own
			}
			if _, err := w.Write(l); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// plan reads the log once and says where the kept history starts (0: all
// of it) and, when some is dropped, the trace and whole runs dropped.
func plan(r io.Reader, keep Keep) (cut int64, drop Dropped, err error) {
	type run struct {
		start int64
		trace string
	}
	var runs []run
	br := bufio.NewReader(r)
	var off int64
	for {
		b, rerr := br.ReadBytes('\n')
		if len(b) > 0 {
			var l line
			json.Unmarshal(b, &l) // a line that is not JSON goes with its run
			if l.Event != Event && (len(runs) == 0 || l.Trace != runs[len(runs)-1].trace) {
				runs = append(runs, run{start: off, trace: l.Trace})
			}
			off += int64(len(b))
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return 0, Dropped{}, rerr
		}
	}
	first := max(0, len(runs)-keep.Runs) // the first run kept
	for first < len(runs)-1 && off-runs[first].start > keep.Bytes {
		first++
	}
	if len(runs) == 0 || first == 0 && off-runs[0].start <= keep.Bytes {
		return 0, Dropped{}, nil // nothing dropped: an earlier marker stays first
	}
	cut = runs[first].start
	if off-cut > keep.Bytes {
		cut = off - keep.Bytes
	}
	for i, r := range runs {
		if r.start < cut {
			drop.Trace = r.trace // the run of the last line dropped
		}
		if i+1 < len(runs) && runs[i+1].start <= cut || i+1 == len(runs) && off <= cut {
			drop.Runs++
		}
	}
	return cut, drop, nil
}
