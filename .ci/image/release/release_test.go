package release

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	tests := []struct{ platform, archive, sbom string }{
		{"linux/amd64", "ingest_1.2.0_linux_amd64.tar.gz", "ingest_1.2.0_linux_amd64.cdx.json"},
		{"darwin/arm64", "ingest_1.2.0_darwin_arm64.tar.gz", "ingest_1.2.0_darwin_arm64.cdx.json"},
		{"windows/amd64", "ingest_1.2.0_windows_amd64.zip", "ingest_1.2.0_windows_amd64.cdx.json"},
	}
	for _, tt := range tests {
		if got := ArchiveName("1.2.0", tt.platform); got != tt.archive {
			t.Errorf("%s: got archive %s, want %s", tt.platform, got, tt.archive)
		}
		if got := SBOMName("1.2.0", tt.platform); got != tt.sbom {
			t.Errorf("%s: got SBOM %s, want %s", tt.platform, got, tt.sbom)
		}
	}
}

func TestVersionPattern(t *testing.T) {
	for v, want := range map[string]bool{
		"1.2.0": true, "0.1.0-dev+a46796b65ea7": true, "2.0.0-rc.1": true,
		"v1.2.0": false, "1.2": false, "1.2.0 ": false, "1.2.0/../x": false, "": false,
	} {
		if got := versionPattern.MatchString(v); got != want {
			t.Errorf("%q: got %v, want %v", v, got, want)
		}
	}
}

// TestCheckSettings: a release binary's build settings are the release's
// and nothing of the machine's; anything else is refused by name.
func TestCheckSettings(t *testing.T) {
	good := []debug.BuildSetting{
		{Key: "-buildmode", Value: "exe"}, {Key: "-compiler", Value: "gc"}, {Key: "-trimpath", Value: "true"},
		{Key: "DefaultGODEBUG", Value: "tlsmlkem=0"}, {Key: "CGO_ENABLED", Value: "0"}, {Key: "GOARCH", Value: "amd64"},
		{Key: "GOOS", Value: "linux"}, {Key: "GOAMD64", Value: "v1"}, {Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "a46796b65ea7f07e25750125cad273a5f79d3855"}, {Key: "vcs.time", Value: "2026-12-02T03:36:11Z"},
		{Key: "vcs.modified", Value: "false"},
	}
	with := func(key, value string) []debug.BuildSetting {
		s := append([]debug.BuildSetting(nil), good...)
		for i := range s {
			if s[i].Key == key {
				s[i].Value = value
				return s
			}
		}
		return append(s, debug.BuildSetting{Key: key, Value: value})
	}
	tests := []struct {
		name     string
		settings []debug.BuildSetting
		want     string // in the error; "" for none
	}{
		{"the release's", good, ""},
		{"a modified tree", with("vcs.modified", "true"), "vcs.modified=true"},
		{"another CPU level", with("GOAMD64", "v3"), "GOAMD64=v3"},
		{"build tags", with("-tags", "duckdb"), "-tags=duckdb"},
		{"an experiment", with("GOEXPERIMENT", "greenteagc"), "GOEXPERIMENT=greenteagc"},
		{"cgo", with("CGO_ENABLED", "1"), "CGO_ENABLED=1"},
		{"no VCS stamp", good[:7], "lacks build settings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at, err := checkSettings(tt.settings, "linux", "amd64")
			if tt.want == "" {
				if err != nil || at.Format("2006-01-02T15:04:05Z07:00") != "2026-12-02T03:36:11Z" {
					t.Errorf("got %v, %v; want the commit's time", at, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error naming %q", err, tt.want)
			}
		})
	}
}
