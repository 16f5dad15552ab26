// Package chunking is the parse and chunk stages: a corpus document is read
// and parsed as Markdown (goldmark; the only package that imports it), then
// cut into chunks knowing its kind — prose by heading section, safety one
// rule per chunk, lore one paragraph per chunk, table rows and code blocks
// whole — never inside a sentence. Chunk and document ids are decided here.
package chunking
