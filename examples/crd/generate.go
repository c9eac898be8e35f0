// Package crd is an example CRD project that generates all its code with kgen: deepcopy functions, scheme
// registration, conversions between its two versions (v1beta1 and v1, the storage version), defaulters,
// typed clientset, listers, informers, its CRD manifest (config/crd, with the conversion webhook) and its
// admission webhook configurations (config/webhook), from one `kgen generate` line. Run `go generate .` in
// this directory (or `make example` from the repository root, which also runs the controller and the
// webhooks against a real API server).
package crd

//go:generate go tool kgen generate --boilerplate hack/boilerplate.go.txt --output-dir ./generated --output-pkg example.com/crd/generated --with-watch --with-applyconfig --crd-dir ./config/crd --crd-conversion-service system/webhook-service --webhook-dir ./config/webhook ./api
