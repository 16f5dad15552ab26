// Package markdown is the Markdown format: it reads a corpus document
// (CommonMark with GFM tables, and the markup documentation sites add:
// Hugo shortcodes, HTML, attribute lists, Docusaurus and MkDocs admonitions,
// content tabs, MDX components) into the chunking.Body the chunker cuts. It
// checks the document's bytes and front matter (corpus), blanks the markup
// that is not words keeping every offset, parses the rest with goldmark (the
// only package that imports it) and walks the tree into blocks.
package markdown
