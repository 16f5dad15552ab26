package publish

import "github.com/ocean-safety/ingest/artifacts"

// Closing is one of the files a snapshot is closed with: Write writes it at
// path (or finishes a file already being written there) and returns its
// rows, for the manifest (0: not counted).
type Closing struct {
	Name  string
	Write func(path string) (rows int, err error)
	// Written, when set, is the file's size and SHA-256 as Write wrote
	// it, hashed on the way out: Seal does not read the file again.
	Written func() artifacts.FileInfo
}

// Seal closes the staged snapshot: it writes the closing files in order,
// describes each in m.Files (bytes, SHA-256, rows), and writes m last, so a
// folder with a manifest is a whole snapshot (see hasManifest). Run and
// merge seal their snapshots with it alike.
func (s *Staging) Seal(m *artifacts.Manifest, files ...Closing) error {
	if m.Files == nil {
		m.Files = map[string]artifacts.FileInfo{}
	}
	for _, f := range files {
		path := s.Path(f.Name)
		rows, err := f.Write(path)
		if err != nil {
			return err
		}
		var info artifacts.FileInfo
		if f.Written != nil {
			info = f.Written()
		} else if info, err = artifacts.Describe(path); err != nil {
			return err
		}
		info.Rows = rows
		m.Files[f.Name] = info
	}
	return artifacts.WriteJSON(s.Path(artifacts.ManifestFile), m)
}
