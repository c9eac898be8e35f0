// Package e2e installs every CRD crd-gen generates in this repository (testdata/crds, the example's
// config/crd and crdgen's own test API) on a real kube-apiserver, round-trips an object with every field
// set through each kind and version, and checks that objects breaking each validation tag are rejected
// with the field path.
package e2e
