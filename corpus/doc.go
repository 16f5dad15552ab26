// Package corpus finds and loads the documents of a Markdown knowledge corpus:
// it walks a folder in sorted order, normalises each file's text (NFC, LF, no
// BOM), reads its title and header lines or YAML front matter, applies the
// folder defaults for kind and language, and validates it, reporting every
// problem as a schema.Diagnostic that names the file and line.
//
// It knows nothing of Markdown beyond the title line: cutting the body into
// chunks is the chunking package's job.
package corpus
