package ociimage

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"os"
	"strings"
	"testing"

	"golang.org/x/crypto/x509roots/fallback/bundle"
)

// TestCABundle: the PEM holds every unconstrained root of the pinned
// bundle, each one parses, it names its source and version, and it is the
// same bytes each time, whatever this machine's /etc/ssl/certs holds.
func TestCABundle(t *testing.T) {
	ca, skipped := CABundle()
	total, constrained := 0, 0
	for r := range bundle.Roots() {
		total++
		if r.Constraint != nil {
			constrained++
		}
	}
	if len(skipped) != constrained {
		t.Errorf("left out %v, want the %d constrained roots", skipped, constrained)
	}
	var n int
	for rest := ca; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if _, err := x509.ParseCertificate(b.Bytes); err != nil {
			t.Errorf("certificate %d: %v", n, err)
		}
		n++
	}
	if want := total - constrained; n != want || n < 100 {
		t.Errorf("got %d certificates, want %d (the bundle's unconstrained roots)", n, want)
	}
	// A test binary's build information has no modules (go run's has: .ci/image.sh test
	// checks the image's file names the version).
	if first, _, _ := strings.Cut(string(ca), "\n"); !strings.Contains(first, caModule+" ") {
		t.Errorf("first line %q, want it to name %s", first, caModule)
	}
	if again, _ := CABundle(); !bytes.Equal(again, ca) {
		t.Errorf("two bundles differ")
	}
	if host, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt"); err == nil && bytes.Equal(host, ca) {
		t.Errorf("the bundle is this machine's /etc/ssl/certs file")
	}
	if !x509.NewCertPool().AppendCertsFromPEM(ca) {
		t.Errorf("crypto/x509 reads no certificate from the bundle")
	}
}
