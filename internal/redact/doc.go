// Package redact keeps credentials out of what the tool shows, in two ways
// and no third:
//
//   - messages the tool builds name an address through URL (or Text for a
//     message that quotes one), which masks its credentials: model servers
//     (http://user:token@gpu-0, ?api_key=), buckets (s3://b/p?endpoint=
//     http://user:pass@host, in any option, URL-encoded or not) and database
//     connection strings (postgres://user:pass@db, password=…);
//   - everything the command line prints goes through a Masker, which masks
//     the secret values the command was given (Secrets of its arguments,
//     Environment, a config file's Lines), in their encoded forms too, and
//     leaves every other byte as written.
//
// Output is never rewritten by pattern: a corpus line about an API key, a
// search result or a shell completion script prints as it is.
package redact
