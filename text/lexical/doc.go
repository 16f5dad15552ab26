// Package lexical is the offline, deterministic side of retrieval: the words
// a text is made of (lower case, accents folded, stop words dropped), the
// built-in embedder that hashes them and their trigrams into a vector, and
// the text an embedder reads for a chunk. Query-time code (search) and the
// pipeline share it, so a question and a chunk are read the same way.
package lexical
