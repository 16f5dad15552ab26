package schema

// Document is one corpus file, loaded, validated and normalised (Unicode NFC,
// LF line ends, no BOM). Every byte offset and line number elsewhere refers to
// Text, whose lines are the source file's lines.
type Document struct {
	Path        string // corpus-relative, slash-separated: the document's key
	Title       string
	SourceURL   string
	SourceLabel string // scope key consumers filter on: a slug of the source folder, or configured
	Kind        Kind
	Lang        Lang
	LangFrom    string // how Lang was decided: document, path, detected or default
	BeachID     string
	Description string              // the front matter's description, if any
	Metadata    map[string][]string // the front-matter keys the config names (metadata_keys)
	Draft       bool                // draft: true in the front matter: not ingested
	Version     string              // hex SHA-256 of Text
	Text        string

	// BodyStart is where the Markdown starts (after a YAML front-matter block).
	BodyStart int
	// ContentStart is where the content starts: after the title heading and
	// its header lines. Nothing before it is chunked.
	ContentStart int
}
