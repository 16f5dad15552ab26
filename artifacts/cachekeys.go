package artifacts

import "strconv"

// HeaderCacheKey is the run-wide part of a header's reuse key
// (CacheKeys.Header): the writer and its length cap.
func HeaderCacheKey(writer string, maxChars int) string {
	return writer + "|max_chars=" + strconv.Itoa(maxChars)
}

// VectorCacheKey is the run-wide part of a vector's reuse key
// (CacheKeys.Vector): the embedder and its width.
func VectorCacheKey(embedder Component) string {
	return embedder.Name + "|dims=" + strconv.Itoa(embedder.Dims)
}
