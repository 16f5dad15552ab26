// Package chunkrow is a snapshot's chunk as the values of chunks.parquet's
// leaf columns, and back: the leaves in file order (LeafChunkID to
// LeafSearchText, LeafCount of them), a chunk's values by leaf with the
// repetition and definition levels that place them in its row (Batch.Add:
// Dremel's encoding of its nulls and lists), and a chunk assembled from
// its row of each leaf (Assemble). Which Parquet types and levels the
// leaves have, and the files, are package artifacts'.
package chunkrow
