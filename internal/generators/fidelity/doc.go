// Package fidelity measures how closely generated code's exported API matches another generator's: it
// lists every exported declaration of a tree of Go packages with its signature, package qualifiers
// rewritten through an import mapping, and compares two such lists. Its tests run kgen's client-gen,
// lister-gen and informer-gen on real API modules from the Go module proxy and compare the result with
// the code-generator output those modules ship, and run kgen generate with every Go code generator on real
// modules' API packages as shipped (istio.io/client-go's kubetype-gen types, sample-controller with its
// models-schema definitions) and build the result.
package fidelity
