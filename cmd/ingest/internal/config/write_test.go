package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ingest.yaml")
	tests := []struct {
		name    string
		text    string
		force   bool
		wantErr error
		want    string // the file's content after
	}{
		{"a new file is written", "a: 1\n", false, nil, "a: 1\n"},
		{"an existing file is kept", "b: 2\n", false, fs.ErrExist, "a: 1\n"},
		{"--force replaces it", "c: 3\n", true, nil, "c: 3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := WriteNew(path, []byte(tt.text), tt.force)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("got error %v, want %v", err, tt.wantErr)
			}
			b, _ := os.ReadFile(path)
			if string(b) != tt.want {
				t.Errorf("got %q, want %q", b, tt.want)
			}
		})
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".ingest.yaml.tmp-*")); len(left) > 0 {
		t.Errorf("got temporary files left %v, want none", left)
	}
}
