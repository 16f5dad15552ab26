package reuse

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"sync"
)

var buildOnce = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
})

// BuildID identifies the running ingest executable: a change to the code
// that chunks or normalises changes it, though no config does.
func BuildID() string { return buildOnce() }
