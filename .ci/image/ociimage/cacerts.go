package ociimage

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"runtime/debug"

	"golang.org/x/crypto/x509roots/fallback/bundle"
)

// caModule is the module the image's CA bundle comes from, pinned in this
// module's go.mod: a newer version of it is a new bundle, and a new digest.
const caModule = "golang.org/x/crypto/x509roots/fallback"

// CABundle is the image's CA bundle as PEM: Mozilla's NSS roots as
// golang.org/x/crypto/x509roots/fallback pins them, never the build
// machine's /etc/ssl/certs, so the image is the same wherever it is built.
//
// A root the bundle trusts only with a constraint (a distrust-after date)
// is left out: a PEM file cannot carry the constraint, and written without
// it the root would be trusted for certificates its distrust is meant to
// refuse. Leaving it out fails closed: a server whose chain ends there is
// refused, as it will be by every client once its older certificates
// expire.
func CABundle() (pem []byte, skipped []string) {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# Mozilla NSS roots from %s %s, unconstrained roots only.\n", caModule, caModuleVersion())
	for root := range bundle.Roots() {
		if root.Constraint != nil {
			skipped = append(skipped, commonName(root.Certificate))
			continue
		}
		pemEncode(&buf, root.Certificate)
	}
	return buf.Bytes(), skipped
}

func pemEncode(buf *bytes.Buffer, der []byte) {
	// pem.Encode into a bytes.Buffer cannot fail.
	_ = pem.Encode(buf, &pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func commonName(der []byte) string {
	c, err := x509.ParseCertificate(der)
	if err != nil {
		return fmt.Sprintf("a root that does not parse (%v)", err)
	}
	return c.Subject.CommonName
}

// caModuleVersion is the version of caModule this program was built with,
// as go.mod pins it (a test binary knows it too).
func caModuleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version)"
	}
	for _, m := range bi.Deps {
		if m.Path == caModule {
			return m.Version
		}
	}
	return "(unknown version)"
}
