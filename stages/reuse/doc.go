// Package reuse decides what earlier work a chunk takes: its header and
// fields, and its vector, from the previous snapshot, else from the
// journal of an interrupted run, else nothing (a miss), and for a header
// miss whether the writer asks a model for it at all
// (models.HeaderWriter.Calls). The run and its --plan ask the same
// Resolver, so what a plan counts is what the run then pays for.
//
// It starts no goroutine and holds no state of its own: the previous
// snapshot's offer for a document (snapshot.Reuse) is read by the run in
// corpus order and handed in; the journal locks itself.
package reuse
