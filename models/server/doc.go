// Package server is a model server as the header writer and the embedder
// use it: the Server interface a client implements (chat, embed, look a
// model up, ping), the requests and answers that cross it, and what every
// client shares: retries with back-off and Retry-After (Retrier),
// StatusError, bounded answers and redacted errors. A pool of servers
// implements it too.
package server
