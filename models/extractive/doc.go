// Package extractive is the offline header writer: title › section path:
// the chunk's first sentence (or the lead-in a chunk carries, the words
// that name its code), capped in length. Deterministic and free; a model
// writer falls back to it.
package extractive
