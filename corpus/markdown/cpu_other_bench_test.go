//go:build !unix

package markdown

import "time"

var cpuStart = time.Now()

// cpuTime stands in for the process's CPU time where getrusage is missing:
// wall time, a fair figure only on an idle machine.
func cpuTime() time.Duration { return time.Since(cpuStart) }
