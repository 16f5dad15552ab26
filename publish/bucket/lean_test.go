package bucket_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeanDefaultBuild: the command as built by default links none of the
// cloud SDKs: S3 goes through minio-go, folders and memory through the
// standard library, and gs:// and azblob:// (gocloud.dev, with gRPC,
// OpenTelemetry and three SDKs behind it) only with -tags cloud. Before,
// they were more than half the binary's modules and a third of its bytes.
func TestLeanDefaultBuild(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "../../cmd/ingest").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, mod := range strings.Fields(string(out)) {
		for _, sdk := range []string{"gocloud.dev", "github.com/aws/", "cloud.google.com/", "github.com/Azure/", "github.com/AzureAD/", "google.golang.org/api"} {
			if strings.HasPrefix(mod, sdk) {
				t.Errorf("the default build links %s: keep the cloud SDKs behind the cloud build tag", mod)
				break
			}
		}
	}
}
