// Package preview is ingest chunk: files chunked as a run with the same
// config would chunk them, for authors tuning their documents. A file is
// read as it is, a folder as a corpus; each chunk is a JSON line, or, with
// stats, the quality figures of the chunks (chunking.Quality) with the
// extractive headers a run would give them. It writes only to the writers
// it is given.
package preview
