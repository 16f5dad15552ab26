package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
)

// SBOMToolVersion is the cyclonedx-gomod that writes the SBOMs: a kept
// CycloneDX tool, installed once per machine from the module proxy.
const SBOMToolVersion = "v1.10.0"

// InstallSBOMTool returns cyclonedx-gomod at SBOMToolVersion, installed
// into cache (as .ci/run installs staticcheck, outside the clone) when it
// is not there yet.
func InstallSBOMTool(cache string) (string, error) {
	dir := filepath.Join(cache, "cyclonedx-gomod-"+SBOMToolVersion)
	tool := filepath.Join(dir, "cyclonedx-gomod")
	if _, err := os.Stat(tool); err == nil {
		return tool, nil
	}
	cmd := exec.Command("go", "install", "github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@"+SBOMToolVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("install cyclonedx-gomod: %w\n%s", err, out)
	}
	return tool, nil
}

// makeSBOM is the CycloneDX SBOM of src's ./cmd/ingest for the platform env
// names: each module linked with its version, go.sum hash and the licence
// found in its files (as evidence: a detector's reading, not a legal
// statement). The tool's app mode reads the modules from the source (the
// binary's own list is checked against it, checkSBOM) because it finds the
// licences there, which its bin mode cannot for an unpublished main module.
// No serial number and no timestamp: the same commit, the same SBOM.
func makeSBOM(tool, src string, env []string) ([]byte, error) {
	f, err := os.CreateTemp("", "ingest-sbom-*.json")
	if err != nil {
		return nil, err
	}
	f.Close()
	defer os.Remove(f.Name())
	cmd := exec.Command(tool, "app", "-json", "-licenses", "-noserial", "-notimestamp", "-main", "cmd/ingest", "-output", f.Name(), src)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("cyclonedx-gomod: %w\n%s", err, out)
	}
	raw, err := os.ReadFile(f.Name())
	if err != nil {
		return nil, err
	}
	return withoutToolHashes(raw)
}

// withoutToolHashes removes the hashes cyclonedx-gomod gives of its own
// executable: they are of this machine's build of the tool (its CPU, its
// Go), not of anything released, and would make two machines' SBOMs of one
// commit differ. The tool's name and version stay, and the rest of the
// document as the tool wrote it, in its order.
func withoutToolHashes(raw []byte) ([]byte, error) {
	var bom cycloneDX
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields() // a field cycloneDX does not name would be lost: refuse it instead
	if err := dec.Decode(&bom); err != nil {
		return nil, fmt.Errorf("read the SBOM: %w", err)
	}
	for i := range bom.Metadata.Tools {
		bom.Metadata.Tools[i].Hashes = nil
	}
	compact, err := json.Marshal(bom)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// cycloneDX is the SBOM cyclonedx-gomod writes, its fields in its order;
// what withoutToolHashes does not change stays as the tool wrote it.
type cycloneDX struct {
	Schema      json.RawMessage `json:"$schema,omitempty"`
	BOMFormat   json.RawMessage `json:"bomFormat"`
	SpecVersion json.RawMessage `json:"specVersion"`
	Version     json.RawMessage `json:"version"`
	Metadata    struct {
		Tools []struct {
			Vendor             json.RawMessage `json:"vendor,omitempty"`
			Name               json.RawMessage `json:"name"`
			Version            json.RawMessage `json:"version"`
			Hashes             json.RawMessage `json:"hashes,omitempty"`
			ExternalReferences json.RawMessage `json:"externalReferences,omitempty"`
		} `json:"tools"`
		Component json.RawMessage `json:"component"`
	} `json:"metadata"`
	Components   json.RawMessage `json:"components,omitempty"`
	Dependencies json.RawMessage `json:"dependencies,omitempty"`
}

// permissive are the licences a linked module may have without a person
// reading it first: each allows shipping it in a binary licensed
// Apache-2.0, with its text beside it (THIRD_PARTY_LICENSES). Anything else
// (GPL, LGPL, MPL, none found) stops the release until someone has read it
// and added it here, saying why.
var permissive = map[string]bool{
	"Apache-2.0": true, "MIT": true, "BSD-2-Clause": true, "BSD-3-Clause": true,
	"BSD-Source-Code": true, // the detector's name for the Go project's BSD-style text (golang.org/x/...)
	"ISC":             true, "0BSD": true, "Unlicense": true,
}

// component is what checkSBOM reads of an SBOM's component.
type component struct {
	Name, Version string
	Evidence      struct {
		Licenses []struct {
			License struct{ ID, Name string }
		}
	}
}

func (c component) licences() []string {
	var ls []string
	for _, l := range c.Evidence.Licenses {
		ls = append(ls, l.License.ID+l.License.Name)
	}
	return ls
}

// checkSBOM checks that sbom lists exactly the modules deps (a binary's
// build information) names, each under a permissive licence, and ingest
// itself under Apache-2.0 (its LICENSE, recognised).
func checkSBOM(sbom []byte, deps []*debug.Module) error {
	var bom struct {
		Metadata   struct{ Component component }
		Components []component
	}
	if err := json.Unmarshal(sbom, &bom); err != nil {
		return err
	}
	var problems []string
	if ls := bom.Metadata.Component.licences(); len(ls) != 1 || ls[0] != "Apache-2.0" {
		problems = append(problems, fmt.Sprintf("ingest's licence found as %v, want Apache-2.0 (LICENSE)", ls))
	}
	linked := map[string]bool{}
	for _, d := range deps {
		linked[d.Path+"@"+d.Version] = true
	}
	for _, c := range bom.Components {
		id := c.Name + "@" + c.Version
		if !linked[id] {
			problems = append(problems, id+" is listed but not linked")
		}
		delete(linked, id)
		ls := c.licences()
		if len(ls) == 0 {
			problems = append(problems, id+": no licence found")
		}
		for _, l := range ls {
			if !permissive[l] {
				problems = append(problems, id+": licence "+l+" is not one a release ships unread")
			}
		}
	}
	for id := range linked {
		problems = append(problems, id+" is linked but not listed")
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}
