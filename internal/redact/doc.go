// Package redact removes credentials from what the tool shows, in one
// place for every kind of address it is given: model servers
// (http://user:token@gpu-0, ?api_key=), buckets (s3://b/p?endpoint=
// http://user:pass@host, in any option, URL-encoded or not), database
// connection strings (postgres://user:pass@db, password=…) and the API
// key's environment variable. URL and Text are for messages the tool
// builds; Secrets and Scrub for the last guard, a writer that scrubs
// everything the command line prints.
package redact
