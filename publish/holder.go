package publish

import (
	"fmt"
	"os"
	"time"
)

// Holder is who holds a target's lock or a bucket prefix's lease, as it
// wrote down when it took it.
type Holder struct {
	PID     int    `json:"pid"`
	Host    string `json:"host"`
	Started string `json:"started"` // RFC 3339
	// Process tells the holder's process from a later one given the same
	// pid: its start as the system records it (on Linux the boot id and the
	// start tick). "" where the system does not say.
	Process string `json:"process,omitempty"`
}

// Self is this process as a holder.
func Self() Holder {
	host, _ := os.Hostname()
	start, _ := processStart(os.Getpid())
	return Holder{PID: os.Getpid(), Host: host, Started: time.Now().UTC().Format(time.RFC3339), Process: start}
}

// Gone reports whether the holder's process has ended, as far as this
// host can tell: it ran here, and no process has its pid, or the one that
// has it started at another time (the pid was reused). A holder on another
// host is never gone by this test: only the expiry of its lease tells.
func (h Holder) Gone() bool {
	host, err := os.Hostname()
	if err != nil || h.Host == "" || h.Host != host || h.PID <= 0 {
		return false
	}
	start, alive := processStart(h.PID)
	if !alive {
		return true
	}
	return h.Process != "" && start != "" && start != h.Process
}

// String names the holder for messages.
func (h Holder) String() string {
	return fmt.Sprintf("pid %d on %s, started %s", h.PID, h.Host, h.Started)
}
