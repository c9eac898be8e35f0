// Package clientgo hands kgen's values to libraries typed on k8s.io/client-go: it converts a kgen
// rest.Config to client-go's and back, and builds a client-go clientset from a kgen config.
//
// It is a module of its own, github.com/kgen-dev/kgen/clientgo, so that kgen's main module never
// imports client-go; only programs that call such a library require it.
package clientgo
