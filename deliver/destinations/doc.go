// Package destinations builds the destination a URL names, by its scheme:
// postgres:// and postgresql:// (and libpq's keyword/value string, which
// has none) a pgvector table (deliver/pgsync), http:// and https:// an
// ingest API (deliver/push). It is the one place that knows every
// destination, as models/backends knows every model client: a new one is
// a package under deliver/ and its line in kinds, with its settings' field
// in Options when it has settings.
package destinations
