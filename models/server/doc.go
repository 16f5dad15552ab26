// Package server is a model server as the header writer and the embedder
// use it: the small interfaces a client implements (Server: where it is,
// ping, look a model up; Chatter and Embedder: what it serves), the
// requests and answers that cross them, and what every client shares:
// retries with back-off and Retry-After (Retrier), StatusError, bounded
// answers and redacted errors. A pool of servers implements them too, as
// its servers do.
package server
