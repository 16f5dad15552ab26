// Package kubernetes holds deploy/kubernetes to the Kubernetes API and the
// PodSecurity "restricted" profile (restricted_test.go). It is a module of
// its own, as .ci/image is, so a developer's go test ./... never downloads
// or compiles the Kubernetes API types; .ci/run runs it.
package kubernetes
