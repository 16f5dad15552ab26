package publish_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
)

// TestSeal: the closing files are written in order and described in the
// manifest, which comes last; a closing file that fails leaves no
// manifest, so the staged folder is never taken for a whole snapshot.
func TestSeal(t *testing.T) {
	var order []string
	write := func(name string, rows int, fail error) publish.Closing {
		return publish.Closing{Name: name, Write: func(path string) (int, error) {
			order = append(order, name)
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), artifacts.ManifestFile)); err == nil {
				t.Errorf("%s written after the manifest", name)
			}
			return rows, errors.Join(fail, os.WriteFile(path, []byte(name), 0o644))
		}}
	}
	st, err := publish.OutTarget(filepath.Join(t.TempDir(), "snap"), "").Stage()
	if err != nil {
		t.Fatal(err)
	}
	var m artifacts.Manifest
	if err := st.Seal(&m, write(artifacts.ChunksFile, 3, nil), write(artifacts.ThresholdsFile, 1, nil), write(artifacts.ReportFile, 0, nil)); err != nil {
		t.Fatal(err)
	}
	if want := []string{artifacts.ChunksFile, artifacts.ThresholdsFile, artifacts.ReportFile}; !reflect.DeepEqual(order, want) {
		t.Errorf("got the files written in order %v, want %v", order, want)
	}
	got, err := artifacts.ReadManifest(st.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if c := got.Files[artifacts.ChunksFile]; c.Rows != 3 || c.Bytes != int64(len(artifacts.ChunksFile)) || len(c.SHA256) != 64 || got.Files[artifacts.ReportFile].Rows != 0 || len(got.Files) != 3 {
		t.Errorf("got files %+v, want each described, with its rows", got.Files)
	}

	st, err = publish.OutTarget(filepath.Join(t.TempDir(), "snap"), "").Stage()
	if err != nil {
		t.Fatal(err)
	}
	disk := errors.New("disk full")
	if err := st.Seal(&artifacts.Manifest{}, write(artifacts.ChunksFile, 3, nil), write(artifacts.ReportFile, 0, disk)); !errors.Is(err, disk) {
		t.Errorf("got %v, want the closing file's error", err)
	}
	if _, err := os.Stat(st.Path(artifacts.ManifestFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got a manifest after a failed closing file (%v), want none", err)
	}
}
