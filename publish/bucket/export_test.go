package bucket

// SetS3Parts sets the largest single PUT and the part size of an s3://
// store's uploads, so a test sends a multipart upload of a few MiB.
func SetS3Parts(o Objects, singleMax, partSize int64) {
	if p, ok := o.(*prefixed); ok {
		o = p.Objects
	}
	s := o.(*s3Objects)
	s.singleMax, s.partSize = singleMax, partSize
}

// MemStores opens n stores on one in-memory bucket (as n runs on one
// prefix), and that bucket's objects: for tests of the lease in a
// testing/synctest bubble, whose clock only this process's memory follows
// (a fake S3 server's sockets would leave the bubble waiting).
func MemStores(n int) ([]*Store, Objects) {
	o := &memObjects{objects: map[string]memObject{}}
	var out []*Store
	for range n {
		out = append(out, &Store{b: o, name: "mem://knowledge/ocean"})
	}
	return out, o
}
