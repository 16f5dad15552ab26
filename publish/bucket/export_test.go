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
