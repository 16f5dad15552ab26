// Package diff says what a corpus change did to a snapshot: the documents
// and chunks two snapshots hold, merged by key (path#order) and compared by
// content hash — added, removed, changed, moved, relabelled — with their
// headers, fields, thresholds, counts and models, as Markdown for a pull
// request (WriteMarkdown) or JSON listing the chunk ids to upsert and
// delete (WriteJSON). It reads both through package artifacts.
package diff
