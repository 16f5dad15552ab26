//go:build !cloud

package bucket

import (
	"context"
	"fmt"
	"net/url"
)

// cloudSchemes are gs:// and azblob://, which this build does not carry:
// their SDKs would double the binary (cloud.go, built with -tags cloud,
// has them). Asking for one says how to get it.
var cloudSchemes = map[string]opener{
	"gs":     noCloud,
	"azblob": noCloud,
}

func noCloud(_ context.Context, u *url.URL, _ url.Values) (Objects, error) {
	alt := ""
	if u.Scheme == "gs" {
		alt = "; or reach GCS through its S3-compatible API with an HMAC key: s3://" + u.Host + "/…?endpoint=https://storage.googleapis.com, the key's id and secret in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
	}
	return nil, fmt.Errorf("%s:// is not in this build of ingest: build it with -tags cloud (go build -tags cloud ./cmd/ingest)%s", u.Scheme, alt)
}
