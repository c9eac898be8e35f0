// Package crd is an example CRD project that generates all its code with kgen: deepcopy functions, scheme
// registration, typed clientset, listers, informers and its CRD manifest (config/crd), from one
// `kgen generate` line. Run `go generate .` in this directory (or `make example` from the repository root, which also runs the
// controller against a real API server).
package crd

//go:generate go tool kgen generate --boilerplate hack/boilerplate.go.txt --output-dir ./generated --output-pkg example.com/crd/generated --with-watch --with-applyconfig --crd-dir ./config/crd --crd-conversion-service system/webhook-service --webhook-dir ./config/webhook ./api
