// Package reuse is how a run meets the work of earlier runs, so that an
// unchanged chunk costs no model call:
//
//   - Previous reads the previous snapshot in step with the corpus and
//     offers each document's headers and vectors (Offer) under the cache
//     keys that shape them (CacheKeys, HeaderKey, VectorKey);
//   - Journal keeps what model servers returned, so a killed run resumes
//     without repeating a paid-for call (mirrored piece by piece where its
//     target keeps a copy: Mirror);
//   - Resolver decides where a chunk's header and vector come from: the
//     previous snapshot, else the journal, else nothing (a miss), and for a
//     header miss whether the writer asks a model at all
//     (models.HeaderWriter.Calls). The run and its --plan ask the same
//     Resolver, so what a plan counts is what the run then pays for;
//   - BuildID tells an unchanged tool.
//
// It starts no goroutine: the previous snapshot's offer for a document is
// read by the run in corpus order and handed in; the journal locks itself.
package reuse
