package release

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
)

// versionPattern is a semantic version without its v: what -X main.version
// takes and a file name can hold.
var versionPattern = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$`)

// devVersion is cmd/ingest's buildinfo.Dev: an untagged commit's version,
// to which the revision is added.
const devVersion = "0.1.0-dev"

// DefaultVersion is the version of src's HEAD: 1.2.0 when a tag v1.2.0
// points at it, else 0.1.0-dev+REVISION (12 hex digits), so two commits
// never share a release's name.
func DefaultVersion(src string) (string, error) {
	if tag, err := git(src, "describe", "--tags", "--exact-match", "--match", "v[0-9]*", "HEAD"); err == nil {
		if v := strings.TrimPrefix(tag, "v"); versionPattern.MatchString(v) {
			return v, nil
		}
	}
	rev, err := git(src, "rev-parse", "HEAD")
	if err != nil {
		return "", fmt.Errorf("the version of %s: %w", src, err)
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return devVersion + "+" + rev, nil
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}
