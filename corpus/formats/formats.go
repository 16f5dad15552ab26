// Package formats is the list of input formats ingest reads, by file
// extension: the one place a format is registered. A scan takes as
// documents the files a format here reads (corpus.Scan), and a run, a plan
// and ingest chunk read each with its format (corpus.Formats.Reader).
package formats

import (
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/html"
	"github.com/ocean-safety/ingest/corpus/markdown"
)

// All is every input format, one line each; the first also reads a file
// given by name whose extension none claims.
var All = corpus.Formats{
	{Name: "markdown", Extensions: []string{".md", ".markdown", ".mdx"}, New: markdown.New}, // MDX: its import lines are dropped
	{Name: "html", Extensions: []string{".html", ".htm"}, New: html.New},
}
