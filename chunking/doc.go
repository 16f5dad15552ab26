// Package chunking is the chunk stage: it cuts a document's blocks (a
// Body, which a format such as package corpus/markdown reads) into chunks by the
// rules of the document's kind (schema.KindRules) — prose by heading section
// with a lead-in kept with what it introduces and fragments merged, safety
// one rule per chunk, lore one paragraph per chunk, table rows and code
// whole — never inside a sentence. Chunk and document ids are decided here, and Quality counts
// what a reader would judge of the result.
package chunking
