package artifacts

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// SnapshotName is the folder name of a published snapshot:
//
//	<created_at, 20261201T075000Z>-<content, 12 hex>
//
// The time comes first, so ls lists a publish folder oldest to newest. The
// content part is a digest of the corpus fingerprint, the config hash and
// chunks.parquet's SHA-256: the output also depends on what config_hash does
// not cover (the embedder and header writer plugged in, the tool version),
// and two different outputs must never share a folder that readers may hold
// open. The same output has the same content part, whenever it was made, so
// publishing an unchanged corpus again adds nothing (see ContentKey).
func SnapshotName(m Manifest) (string, error) {
	key, err := ContentKey(m)
	if err != nil {
		return "", err
	}
	t, err := time.Parse(time.RFC3339, m.CreatedAt)
	if err != nil {
		return "", fmt.Errorf("snapshot name: created_at %q: %w", m.CreatedAt, err)
	}
	return t.UTC().Format("20060102T150405Z") + "-" + key, nil
}

// ContentKey is the content part of a snapshot's name.
func ContentKey(m Manifest) (string, error) {
	chunks := m.Files[ChunksFile].SHA256
	if !IsHex(m.CorpusFingerprint, 12) || !IsHex(m.ConfigHash, 12) || !IsHex(chunks, 8) {
		return "", fmt.Errorf("snapshot name: the manifest lacks a corpus fingerprint, config hash or %s SHA-256", ChunksFile)
	}
	sum := sha256.Sum256([]byte(m.CorpusFingerprint + "\x00" + m.ConfigHash + "\x00" + chunks))
	return hex.EncodeToString(sum[:])[:12], nil
}

// IsHex reports whether s is at least n characters of lower-case hex.
func IsHex(s string, n int) bool {
	if len(s) < n {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}
