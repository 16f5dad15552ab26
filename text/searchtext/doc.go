// Package searchtext is what the embedder reads of a chunk and what BM25
// indexes, the snapshot's search_text column: the chunk's context (section
// path and header), a blank line, and its text as a reader of the rendered
// page sees it (Clean). The pipeline writes it, ingest search reads it, and
// a consumer's lexical leg indexes it, so all three read the same text; the
// stored text stays verbatim.
package searchtext
