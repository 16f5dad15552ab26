// Package corpus finds and loads the documents of a knowledge corpus: it
// walks a folder in sorted order, takes the files a format reads (Formats,
// listed in package formats), normalises each file's text (NFC, LF, no
// BOM), reads its front matter (and, for Markdown, its title and header
// lines), applies the folder defaults for kind and language, and validates
// it, reporting every problem as a schema.Diagnostic that names the file
// and line.
//
// It is the seam between the formats and the rest: a Format turns a file's
// bytes into a Parsed document and its chunking.Body; the Reader reads the
// file once, bounds its size and hashes it, for every format. It knows
// nothing of Markdown beyond the title line: cutting the body into chunks
// is the chunking package's job.
package corpus
