package release

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
)

// module is a module linked into the binary and the folder its files are
// in (the module cache's, read-only).
type module struct {
	Path, Version, Dir string
}

// moduleDirs finds the folders of deps (a binary's build information) in
// the module cache, downloading what is not there: one go mod download,
// which checks each module against go.sum's hash.
func moduleDirs(src string, env []string, deps []*debug.Module) ([]module, error) {
	args := []string{"mod", "download", "-json"}
	for _, d := range deps {
		if d.Replace != nil {
			d = d.Replace
		}
		if d.Version == "" {
			return nil, fmt.Errorf("module %s is replaced by a folder: a release is built from published modules", d.Path)
		}
		args = append(args, d.Path+"@"+d.Version)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = src, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go mod download: %w\n%s%s", err, out, stderr.Bytes())
	}
	var mods []module
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m struct{ Path, Version, Dir, Error string }
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if m.Error != "" || m.Dir == "" {
			return nil, fmt.Errorf("module %s@%s: %s", m.Path, m.Version, m.Error)
		}
		mods = append(mods, module{m.Path, m.Version, m.Dir})
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	return mods, nil
}

// licenceFile matches the files at a module's root that carry its terms:
// LICENSE, LICENCE.md, COPYING, NOTICE.txt, PATENTS, UNLICENSE,
// LICENSE-MIT...
var licenceFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents|unlicense)([._-].*)?$`)

// thirdParty is THIRD_PARTY_LICENSES: the licence files of the Go toolchain
// (its standard library and runtime are in every binary) and of each
// module in mods, as their authors wrote them. The MIT and BSD licences ask
// for their text in a binary's distribution, and Apache-2.0 for the
// module's NOTICE: this file is how the release and the image carry them.
// A module without a licence file stops the release: someone has to find
// out on what terms it may be shipped.
func thirdParty(src string, env []string, mods []module) ([]byte, error) {
	cmd := exec.Command("go", "env", "GOROOT", "GOVERSION")
	cmd.Dir, cmd.Env = src, env
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	goroot, goversion, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	var buf bytes.Buffer
	buf.WriteString("The licences of what is linked into this ingest binary besides ingest itself (LICENSE):\n" +
		"the Go standard library and runtime, and each Go module, as their authors wrote them.\n")
	all := append([]module{{Path: "Go (standard library and runtime)", Version: goversion, Dir: goroot}}, mods...)
	for _, m := range all {
		if err := appendLicences(&buf, m); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// appendLicences appends the licence files at m's root to buf, each under a
// heading naming the module, its version and the file.
func appendLicences(buf *bytes.Buffer, m module) error {
	entries, err := os.ReadDir(m.Dir)
	if err != nil {
		return err
	}
	found := 0
	for _, e := range entries { // ReadDir sorts by name
		if !e.Type().IsRegular() || !licenceFile.MatchString(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(m.Dir, e.Name()))
		if err != nil {
			return err
		}
		rule := strings.Repeat("=", 80)
		fmt.Fprintf(buf, "\n%s\n%s %s: %s\n%s\n\n", rule, m.Path, m.Version, e.Name(), rule)
		buf.Write(bytes.TrimRight(b, "\n"))
		buf.WriteByte('\n')
		found++
	}
	if found == 0 {
		return errors.New("module " + m.Path + "@" + m.Version + " has no licence file at its root: find out on what terms it may be shipped before releasing it")
	}
	return nil
}
