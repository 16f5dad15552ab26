package corpus

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/ocean-safety/ingest/schema"
)

// DefaultSourceLabel is the source label of a corpus whose config names
// none: a Slug of the corpus folder's name, and of its parent's too when the
// folder is named like a language ("otel/en" → "otel-en", "docs/pt-BR" →
// "docs-pt-br"). A language folder alone reads as a language, and two
// translations of one site would share nothing but their labels' look.
func DefaultSourceLabel(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = filepath.Clean(root)
	}
	name := filepath.Base(abs)
	if langFolder.MatchString(name) {
		if parent := filepath.Base(filepath.Dir(abs)); parent != "" && parent != string(filepath.Separator) && parent != "." {
			name = parent + "-" + name
		}
	}
	return Slug(name)
}

// langFolder is a folder named like a language tag: two letters, and a
// region or script after - or _ (en, pt, pt-BR, zh_Hans).
var langFolder = regexp.MustCompile(`^(?i)[a-z]{2}(?:[-_](?:[a-z]{2}|[a-z]{4}|[0-9]{3}))?$`)

// IsLangFolder reports whether a folder's name reads as a language tag.
func IsLangFolder(name string) bool { return langFolder.MatchString(strings.TrimSpace(name)) }

// CheckSourceLabel is schema.CheckLabel and one normal form, NFC (the form
// a document's text is read in): "café" typed as e and a combining accent
// would be another scope than "café" that looks the same. It names the
// form to write instead.
func CheckSourceLabel(label string) error {
	if err := schema.CheckLabel(label); err != nil {
		return err
	}
	if !norm.NFC.IsNormalString(label) {
		return fmt.Errorf("%q is not in Unicode normal form C: write it as %q", label, norm.NFC.String(label))
	}
	return nil
}
