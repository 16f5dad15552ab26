package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestFailedPartsExpire: a night whose shards failed leaves its parts in
// the bucket (merge --remove-parts removes only a merged run's), so the
// bucket's lifecycle rule deploy/kubernetes/parts-lifecycle.json
// (aws s3api put-bucket-lifecycle-configuration, mc ilm import, or the
// store's own) expires what is under the parts' prefix after N days: the
// prefix every manifest and the workflow write parts under, and N over a
// night's run (run.sh waits 12 h for the shards) so a running night's
// parts are never taken.
func TestFailedPartsExpire(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../deploy/kubernetes/parts-lifecycle.json")
	if err != nil {
		t.Fatal(err)
	}
	var lc struct {
		Rules []struct {
			ID                             string
			Status                         string
			Filter                         struct{ Prefix string }
			Expiration                     struct{ Days int }
			AbortIncompleteMultipartUpload struct{ DaysAfterInitiation int }
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&lc); err != nil {
		t.Fatalf("parts-lifecycle.json: %v", err)
	}
	if len(lc.Rules) != 1 {
		t.Fatalf("got %d rules, want 1", len(lc.Rules))
	}
	r := lc.Rules[0]
	if r.Status != "Enabled" || r.Expiration.Days < 2 || r.AbortIncompleteMultipartUpload.DaysAfterInitiation < 1 {
		t.Errorf("got %+v, want an enabled rule expiring after 2 days or more, and aborting unfinished uploads", r)
	}
	partsURL := regexp.MustCompile(`s3://knowledge/([a-z-]+/)`)
	for _, f := range []string{"../../deploy/kubernetes/shards.yaml", "../../deploy/kubernetes/merge.yaml", "../../deploy/github-actions/knowledge-index.yml"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range partsURL.FindAllStringSubmatch(string(b), -1) {
			if m[1] == r.Filter.Prefix {
				found = true
			}
		}
		if !found {
			t.Errorf("%s writes no parts under s3://knowledge/%s, the prefix the rule expires", f, r.Filter.Prefix)
		}
	}
}
