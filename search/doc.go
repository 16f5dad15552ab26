// Package search answers questions over a published snapshot: it loads the
// chunks of a chunks.parquet into an in-memory Index and ranks them by BM25,
// by cosine similarity of their stored embeddings, or by the reciprocal rank
// fusion of both. Filters (language, beach, source label, kind) and the
// beach a question names narrow the candidates before anything is ranked,
// and BM25 takes its statistics from those candidates, each language's
// from its own: a filtered search ranks as if only the filtered chunks had
// been indexed. A question reaches the chunks of the snapshot's other
// language through its words translated (translate.go: a lexicon learned
// from the snapshot's own translated pages, and a dictionary such as
// FreeDict's), in both legs, a chunk reached so counting a little less
// than one in the question's own language when that language has a chunk
// clearing BM25's relevance floor, and as much when it has none (reaches).
//
// It also owns retrieval evaluation: the golden-questions file (read and
// validated strictly), recall@k and MRR per mode and language, and how well
// a result's relevance (relevance.go) separates answerable from unanswerable
// questions, with the floor it proposes (floor.go). DefaultMode and DefaultTopK are the defaults of the
// retrieval.mode and retrieval.top_k settings. Ask and EvaluateDir do the
// same over a snapshot folder. It never prints; cmd/ingest/internal/console formats
// what it returns.
package search
