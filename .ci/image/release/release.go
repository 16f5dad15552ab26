package release

import (
	"bytes"
	"debug/buildinfo"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// Platforms is what a release is built for: what people run ingest on.
var Platforms = []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64", "windows/arm64"}

// Spec is what a release is built from.
type Spec struct {
	// Src is a clone of the commit to release; its ./cmd/ingest is built.
	Src string
	// Version is what the binaries' --version prints and the files are
	// named for ("1.2.0"); DefaultVersion(Src) when empty.
	Version string
	// Platforms are GOOS/GOARCH pairs ("linux/amd64").
	Platforms []string
	// SBOMTool is the cyclonedx-gomod executable (InstallSBOMTool).
	SBOMTool string
	// Log receives a line per platform built.
	Log io.Writer
}

// Name is the stem of platform's files in a release of version:
// ingest_1.2.0_linux_amd64 (.tar.gz, .zip, .cdx.json; the archive's folder).
func Name(version, platform string) string {
	return "ingest_" + version + "_" + strings.ReplaceAll(platform, "/", "_")
}

// ArchiveName is platform's archive: a zip for Windows, where people open
// zips, a tar.gz elsewhere.
func ArchiveName(version, platform string) string {
	if strings.HasPrefix(platform, "windows/") {
		return Name(version, platform) + ".zip"
	}
	return Name(version, platform) + ".tar.gz"
}

// SBOMName is platform's SBOM beside its archive.
func SBOMName(version, platform string) string { return Name(version, platform) + ".cdx.json" }

// Build writes the release of spec into out, a new folder, and returns its
// version.
func Build(spec Spec, out string) (string, error) {
	if _, err := os.Stat(out); err == nil {
		return "", fmt.Errorf("%s exists; a release is written to a new folder", out)
	}
	if len(spec.Platforms) == 0 {
		return "", errors.New("no platform to build")
	}
	version := spec.Version
	if version == "" {
		v, err := DefaultVersion(spec.Src)
		if err != nil {
			return "", err
		}
		version = v
	}
	if !versionPattern.MatchString(version) {
		return "", fmt.Errorf("version %q: want MAJOR.MINOR.PATCH[-PRE][+BUILD], without a v", version)
	}
	if spec.Log == nil {
		spec.Log = io.Discard
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	work, err := os.MkdirTemp("", "ingest-release-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	for _, p := range spec.Platforms {
		if err := buildPlatform(spec, version, p, out, work); err != nil {
			return "", fmt.Errorf("%s: %w", p, err)
		}
	}
	return version, writeSums(out)
}

// buildPlatform writes platform's archive and SBOM into out.
func buildPlatform(spec Spec, version, platform, out, work string) error {
	goos, goarch, ok := strings.Cut(platform, "/")
	if !ok || !known(platform) {
		return fmt.Errorf("unknown platform: want one of %s", strings.Join(Platforms, ", "))
	}
	env := goEnv(goos, goarch)
	exe := "ingest"
	if goos == "windows" {
		exe += ".exe"
	}
	binPath := filepath.Join(work, Name(version, platform), exe)
	if err := goBuild(spec.Src, env, version, binPath); err != nil {
		return err
	}
	bin, err := os.ReadFile(binPath)
	if err != nil {
		return err
	}
	bi, err := buildinfo.Read(bytes.NewReader(bin))
	if err != nil {
		return err
	}
	created, err := checkSettings(bi.Settings, goos, goarch)
	if err != nil {
		return err
	}
	mods, err := moduleDirs(spec.Src, env, bi.Deps)
	if err != nil {
		return err
	}
	third, err := thirdParty(spec.Src, env, mods)
	if err != nil {
		return err
	}
	sbom, err := makeSBOM(spec.SBOMTool, spec.Src, env)
	if err != nil {
		return err
	}
	if err := checkSBOM(sbom, bi.Deps); err != nil {
		return fmt.Errorf("the SBOM: %w", err)
	}
	files := []File{{Name: exe, Mode: 0o755, Body: bin}}
	for _, doc := range []string{"LICENSE", "NOTICE", "README.md"} {
		b, err := os.ReadFile(filepath.Join(spec.Src, doc))
		if err != nil {
			return err
		}
		files = append(files, File{Name: doc, Mode: 0o644, Body: b})
	}
	files = append(files, File{Name: "THIRD_PARTY_LICENSES", Mode: 0o644, Body: third}, File{Name: SBOMFile, Mode: 0o644, Body: sbom})
	archive := filepath.Join(out, ArchiveName(version, platform))
	if err := WriteArchive(archive, Name(version, platform), files, created); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, SBOMName(version, platform)), sbom, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(spec.Log, "release: %s: %s (binary %.1f MB, %d modules)\n", platform, filepath.Base(archive), float64(len(bin))/1e6, len(bi.Deps))
	return nil
}

// SBOMFile is the SBOM's name in an archive (and in the image's
// /usr/share/doc/ingest).
const SBOMFile = "sbom.cdx.json"

// goEnv is the environment of every go command a release runs: this
// machine's, with whatever shapes the binary's bytes set.
func goEnv(goos, goarch string) []string {
	return append(os.Environ(),
		"GOTOOLCHAIN="+runtime.Version(), // this program's Go, which .ci/image/go.mod's toolchain line names and the scripts pin
		"GOFLAGS=-mod=readonly",          // not the machine's: a -buildvcs=false or -tags there would change the binary
		"CGO_ENABLED=0",                  // static, and no C toolchain of this machine in it
		"GOOS="+goos, "GOARCH="+goarch,
		"GOAMD64=v1", "GOARM64=v8.0", // the oldest CPUs each port runs on, whatever this machine's go env says
	)
}

// goBuild builds src's ./cmd/ingest into bin: no paths of this machine
// (-trimpath), no symbol tables, the version where --version finds it, the
// VCS stamp kept (the revision and its time).
func goBuild(src string, env []string, version, bin string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=true",
		"-ldflags=-s -w -X main.version="+version, "-o", bin, "./cmd/ingest")
	cmd.Dir, cmd.Env = src, env
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, stderr.Bytes())
	}
	return nil
}

// checkSettings refuses a binary whose build took a setting that is not
// the release's (an experiment, build tags, flags from the machine) or
// came from a modified tree, and returns the commit's time, which every
// timestamp in the archive is.
func checkSettings(settings []debug.BuildSetting, goos, goarch string) (time.Time, error) {
	want := map[string]string{
		"-buildmode": "exe", "-compiler": "gc", "-trimpath": "true", "CGO_ENABLED": "0",
		"GOOS": goos, "GOARCH": goarch, "vcs": "git", "vcs.modified": "false",
	}
	switch goarch {
	case "amd64":
		want["GOAMD64"] = "v1"
	case "arm64":
		want["GOARM64"] = "v8.0"
	}
	var at string
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision", "DefaultGODEBUG": // the commit, and what its go.mod implies
		case "vcs.time":
			at = s.Value
		default:
			if w, ok := want[s.Key]; !ok || w != s.Value {
				return time.Time{}, fmt.Errorf("the binary was built with %s=%s, which a release never is", s.Key, s.Value)
			}
			delete(want, s.Key)
		}
	}
	if len(want) > 0 || at == "" {
		return time.Time{}, fmt.Errorf("the binary lacks build settings %v or the commit's time: build from a git clone", want)
	}
	return time.Parse(time.RFC3339, at)
}

func known(platform string) bool {
	for _, p := range Platforms {
		if p == platform {
			return true
		}
	}
	return false
}
