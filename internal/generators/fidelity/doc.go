// Package fidelity measures how closely generated code's exported API matches another generator's: it
// lists every exported declaration of a tree of Go packages with its signature, package qualifiers
// rewritten through an import mapping, and compares two such lists. Its test runs kgen's client-gen,
// lister-gen and informer-gen on real API modules from the Go module proxy and compares the result with
// the code-generator output those modules ship.
package fidelity
