package ollama

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"time"
)

// Signed requests, as Ollama's own client makes them (api.Client with
// auth.Sign, v0.17.4) when $OLLAMA_AUTH is on or the server is ollama.com:
// the request's address gets ?ts=UNIX-SECONDS, and an Authorization header
// carries "PUB:SIG", PUB the key's public half in SSH wire form and SIG its
// ed25519 signature of "METHOD,PATH?ts=UNIX-SECONDS", both base64 (PATH is
// the API's, "/api/chat", whatever path the server's address has). The key
// is the one Ollama makes on its first start, ~/.ollama/id_ed25519, an
// unencrypted OpenSSH private key; the command line resolves its path from
// $HOME (only it reads the environment), and New reads it once, so a
// missing key fails at start-up rather than on every call. It is read here
// in 60 lines rather than with golang.org/x/crypto/ssh, which Ollama's
// module used and nothing else of ours links.

// signer signs requests with Ollama's key.
type signer struct {
	pub  string // the public half in SSH wire form, base64
	priv ed25519.PrivateKey
}

// sign adds the signing time and the signature to req, a call to the API's
// path.
func (s *signer) sign(req *http.Request, path string, now time.Time) {
	ts := strconv.FormatInt(now.Unix(), 10)
	q := req.URL.Query()
	q.Set("ts", ts)
	req.URL.RawQuery = q.Encode()
	req.Header.Set("Authorization", s.token(req.Method+","+path+"?ts="+ts))
}

// token is the Authorization header's value for challenge.
func (s *signer) token(challenge string) string {
	return s.pub + ":" + base64.StdEncoding.EncodeToString(ed25519.Sign(s.priv, []byte(challenge)))
}

// loadSigner reads the key at path.
func loadSigner(path string) (*signer, error) {
	if path == "" {
		return nil, errors.New("no key file: the home folder, where Ollama keeps its key (.ollama/id_ed25519), is unknown")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: Ollama makes its key on its first start (`ollama serve`)", err)
	}
	priv, err := parseKey(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pub := sshString(nil, []byte("ssh-ed25519"))
	pub = sshString(pub, priv.Public().(ed25519.PublicKey))
	return &signer{pub: base64.StdEncoding.EncodeToString(pub), priv: priv}, nil
}

var errKeyFormat = errors.New("not an unencrypted ed25519 key in OpenSSH's format, as Ollama makes its own")

// parseKey reads an unencrypted ed25519 key in OpenSSH's format
// (PROTOCOL.key in OpenSSH's sources): a magic string, cipher and KDF
// "none", one public key, and a private section of two equal check
// numbers, the key type, the public key, the private key (seed and public
// key), a comment and padding.
func parseKey(b []byte) (ed25519.PrivateKey, error) {
	block, _ := pem.Decode(b)
	if block == nil || block.Type != "OPENSSH PRIVATE KEY" {
		return nil, errKeyFormat
	}
	rest, ok := bytes.CutPrefix(block.Bytes, []byte("openssh-key-v1\x00"))
	if !ok {
		return nil, errKeyFormat
	}
	r := &sshReader{b: rest}
	cipher, kdf := string(r.string()), string(r.string())
	if !r.bad && (cipher != "none" || kdf != "none") {
		return nil, errors.New("the key is encrypted (it has a passphrase); Ollama's own is not")
	}
	r.string() // KDF options
	n := r.uint32()
	r.string() // the public key, again in the private section
	p := &sshReader{b: r.string()}
	check1, check2 := p.uint32(), p.uint32()
	kind, pub, priv := string(p.string()), p.string(), p.string()
	if r.bad || p.bad || n != 1 || check1 != check2 || kind != "ssh-ed25519" ||
		len(pub) != ed25519.PublicKeySize || len(priv) != ed25519.PrivateKeySize || !bytes.Equal(priv[ed25519.SeedSize:], pub) {
		return nil, errKeyFormat
	}
	return ed25519.PrivateKey(bytes.Clone(priv)), nil
}

// sshReader reads SSH's wire encoding; a read past the end sets bad and
// reads zeros.
type sshReader struct {
	b   []byte
	bad bool
}

func (r *sshReader) uint32() uint32 {
	if len(r.b) < 4 {
		r.bad, r.b = true, nil
		return 0
	}
	v := binary.BigEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *sshReader) string() []byte {
	n := r.uint32()
	if uint64(n) > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

// sshString appends s as an SSH string: its length, then its bytes.
func sshString(b, s []byte) []byte {
	return append(binary.BigEndian.AppendUint32(b, uint32(len(s))), s...)
}
