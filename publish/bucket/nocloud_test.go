//go:build !cloud

package bucket_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/publish/bucket"
)

// TestNoCloud: gs:// and azblob:// in the default build say how to get
// them (the cloud build tag; for GCS, its S3-compatible API) instead of
// "unknown scheme".
func TestNoCloud(t *testing.T) {
	tests := []struct{ url, want string }{
		{"gs://knowledge/ocean", "s3://knowledge/…?endpoint=https://storage.googleapis.com"},
		{"azblob://knowledge/ocean", "-tags cloud"},
	}
	for _, tt := range tests {
		_, err := bucket.OpenObjects(context.Background(), tt.url)
		if err == nil || !strings.Contains(err.Error(), "-tags cloud") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want it explained (%q)", tt.url, err, tt.want)
		}
	}
}
