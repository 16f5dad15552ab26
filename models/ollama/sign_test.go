package ollama

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/server"
)

// ollamaSign is Ollama's auth.Sign (v0.17.4) as it reads: the key file
// parsed by golang.org/x/crypto/ssh, the public half as an authorized_keys
// line without its type, the signature's blob. The reference ours must
// match byte for byte (ed25519 signatures are deterministic).
func ollamaSign(t *testing.T, keyFile string, challenge []byte) string {
	t.Helper()
	b, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ssh.ParsePrivateKey(b)
	if err != nil {
		t.Fatal(err)
	}
	parts := bytes.Split(ssh.MarshalAuthorizedKey(key.PublicKey()), []byte(" "))
	sig, err := key.Sign(rand.Reader, challenge)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s:%s", bytes.TrimSpace(parts[1]), base64.StdEncoding.EncodeToString(sig.Blob))
}

// TestSignAsOllama: a key Ollama would make (OpenSSH's format, as
// ssh.MarshalPrivateKey writes it) signs as Ollama's client signs, and the
// signature verifies against the public key.
func TestSignAsOllama(t *testing.T) {
	for i := range 5 {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		path := writeKey(t, priv, "")
		s, err := loadSigner(path)
		if err != nil {
			t.Fatal(err)
		}
		challenge := fmt.Sprintf("POST,/api/chat?ts=%d", 1767225600+i)
		got := s.token(challenge)
		if want := ollamaSign(t, path, []byte(challenge)); got != want {
			t.Errorf("got %q, want Ollama's %q", got, want)
		}
		pub, err := ssh.NewPublicKey(priv.Public())
		if err != nil {
			t.Fatal(err)
		}
		pub64, sig64, _ := strings.Cut(got, ":")
		sig, _ := base64.StdEncoding.DecodeString(sig64)
		if pub64 != base64.StdEncoding.EncodeToString(pub.Marshal()) {
			t.Errorf("got public key %q, want the key's", pub64)
		}
		if err := pub.Verify([]byte(challenge), &ssh.Signature{Format: ssh.KeyAlgoED25519, Blob: sig}); err != nil {
			t.Errorf("the signature does not verify: %v", err)
		}
	}
}

// TestSignerRefuses: a key that cannot sign as Ollama's does is refused at
// start-up, saying why.
func TestSignerRefuses(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(writeKey(t, priv, ""))
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(good)
	file := func(b []byte) string {
		p := filepath.Join(t.TempDir(), "id_ed25519")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rsaBlock, err := ssh.MarshalPrivateKey(rsaKey, "")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"no home", "", "home folder"},
		{"no file", filepath.Join(t.TempDir(), "id_ed25519"), "Ollama makes its key on its first start"},
		{"encrypted", writeKey(t, priv, "secret"), "passphrase"},
		{"rsa", file(pem.EncodeToMemory(rsaBlock)), "not an unencrypted ed25519 key"},
		{"not PEM", file([]byte("ssh-ed25519 AAAA… user@host\n")), "not an unencrypted ed25519 key"},
		{"cut short", file(pem.EncodeToMemory(&pem.Block{Type: block.Type, Bytes: block.Bytes[:len(block.Bytes)/2]})), "not an unencrypted ed25519 key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadSigner(tt.path)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestSigning: requests are signed with OLLAMA_AUTH on and always for
// ollama.com, whose key must then be there; the challenge names the API's
// path even when the server's address has one of its own, as Ollama's
// client makes it.
func TestSigning(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	key := writeKey(t, priv, "")
	pub, _ := ssh.NewPublicKey(priv.Public())
	r := &server.Retrier{Policy: models.RetryPolicy{Tries: 1}, Timeout: 5 * time.Second}

	for _, tc := range []struct {
		host   string
		auth   bool
		signed bool
	}{{"http://127.0.0.1:11434", false, false}, {"http://127.0.0.1:11434", true, true}, {"https://ollama.com", false, true}} {
		o, err := New(tc.host, tc.auth, key, time.Second, r)
		if err != nil || (o.signer != nil) != tc.signed {
			t.Errorf("%s, auth %v: got %v, signing %v; want signing %v", tc.host, tc.auth, err, o != nil && o.signer != nil, tc.signed)
		}
	}
	if _, err := New("https://ollama.com", false, filepath.Join(t.TempDir(), "none"), time.Second, r); err == nil || !strings.Contains(err.Error(), "ollama.com") {
		t.Errorf("ollama.com without a key: got %v, want an error at start-up", err)
	}

	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		got = req.URL.Path
		pub64, sig64, _ := strings.Cut(req.Header.Get("Authorization"), ":")
		sig, _ := base64.StdEncoding.DecodeString(sig64)
		challenge := "GET,/api/version?ts=" + req.URL.Query().Get("ts")
		if pub64 != base64.StdEncoding.EncodeToString(pub.Marshal()) || pub.Verify([]byte(challenge), &ssh.Signature{Format: ssh.KeyAlgoED25519, Blob: sig}) != nil {
			w.WriteHeader(http.StatusUnauthorized)
		}
		_, _ = w.Write([]byte(`{"version":"0.17.4"}`))
	}))
	defer srv.Close()
	o, err := New(srv.URL+"/ollama", true, key, time.Second, r)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Ping(context.Background()); err != nil || got != "/ollama/api/version" {
		t.Errorf("got %v at %s, want a signature of GET,/api/version at /ollama/api/version", err, got)
	}
}

// FuzzParseKey: whatever the key file holds, reading it does not panic,
// and a key it reads is whole.
func FuzzParseKey(f *testing.F) {
	for _, seed := range []byte{1, 2} {
		priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
		block, err := ssh.MarshalPrivateKey(priv, "comment")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(pem.EncodeToMemory(block))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		priv, err := parseKey(b)
		if err != nil {
			return
		}
		if !bytes.Equal(ed25519.NewKeyFromSeed(priv.Seed()), priv) {
			t.Errorf("read a key whose public half is not its seed's")
		}
	})
}

// writeKey writes priv as Ollama writes its key, with passphrase when one
// is given, and returns its path.
func writeKey(t *testing.T, priv ed25519.PrivateKey, passphrase string) string {
	t.Helper()
	var block *pem.Block
	var err error
	if passphrase == "" {
		block, err = ssh.MarshalPrivateKey(priv, "")
	} else {
		block, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "", []byte(passphrase))
	}
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
