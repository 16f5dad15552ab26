package stages

import "runtime"

// LimitProcs makes a run's Workers that many cores' worth: the runner's
// streams, the collector and the Parquet writer share them, so a CI job told
// to use one core uses one. It returns what puts GOMAXPROCS back as it was,
// once the run is done; with no limit (0) or one above the cores, nothing
// changes.
func LimitProcs(workers int) (restore func()) {
	if workers > 0 && workers < runtime.GOMAXPROCS(0) {
		prev := runtime.GOMAXPROCS(workers)
		return func() { runtime.GOMAXPROCS(prev) }
	}
	return func() {}
}
