// Package cli implements the generator commands (client-gen, lister-gen, informer-gen, deepcopy-gen, register-gen) as functions of their
// arguments, so the binaries are one line and tests run them in process.
package cli
