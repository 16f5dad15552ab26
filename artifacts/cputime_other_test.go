//go:build !unix

package artifacts

import "time"

// processCPU is not measured here: the benchmark reports zero.
func processCPU() time.Duration { return 0 }
