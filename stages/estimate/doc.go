// Package estimate counts what a run would pay for before it runs (ingest index
// --plan): the header and embedding calls its models would make after what
// the previous snapshot and the journal of an interrupted run hold, each
// chunk resolved by the run's own reuse.Resolver, and what those calls
// would cost in tokens and, at a given or measured rate, in time. The run
// (stages.Plan) reads the corpus and hands the counter its documents.
package estimate
