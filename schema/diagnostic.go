package schema

import (
	"fmt"
	"strconv"
)

// Severity says whether a diagnostic rejects its document.
type Severity string

// Severities, from the worst.
const (
	SeverityError   Severity = "error"   // the document is rejected (the run fails under --strict)
	SeverityWarning Severity = "warning" // reported; the document is ingested (an error under --strict)
	SeverityInfo    Severity = "info"    // reported only
)

// Diagnostic is one problem found in the input, with its position.
type Diagnostic struct {
	Path     string   `json:"path"`
	Line     int      `json:"line"` // 1-based; 0 when the problem is the whole file
	Severity Severity `json:"severity"`
	Code     string   `json:"code"` // stable, machine-readable: missing-title, invalid-utf8, ...
	Message  string   `json:"message"`
	// Ignored marks a warning or info the run's config accepts
	// (diagnostics.ignore, --ignore): reported, not printed one by one,
	// and no failure under --strict.
	Ignored bool `json:"ignored,omitempty"`
}

// String formats d as "path:line: severity: message [code]", the form editors
// and CI logs link to.
func (d Diagnostic) String() string {
	pos := d.Path
	if d.Line > 0 {
		pos += ":" + strconv.Itoa(d.Line)
	}
	return fmt.Sprintf("%s: %s: %s [%s]", pos, d.Severity, d.Message, d.Code)
}

// ChunkKey formats a chunk's position key.
func ChunkKey(docPath string, order int) string {
	return docPath + "#" + strconv.Itoa(order)
}

// Skipped is a file under the corpus root that is not ingested, with why:
// counted in the report, never skipped silently.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"` // hidden | not-markdown | not-regular
}

// SettingError is a bad setting, named by its config key ("chunk.max",
// "llm_concurrency", "ollama_host"), so a command line can name the flag
// that sets it while the library names only its own settings.
type SettingError struct {
	Key string
	Err error
}

func (e *SettingError) Error() string { return e.Key + ": " + e.Err.Error() }
func (e *SettingError) Unwrap() error { return e.Err }

// Setting returns a SettingError for key.
func Setting(key string, format string, a ...any) error {
	return &SettingError{Key: key, Err: fmt.Errorf(format, a...)}
}
