// Package cli implements the client-gen, lister-gen and informer-gen commands as functions of their
// arguments, so the binaries are one line and tests run them in process.
package cli
