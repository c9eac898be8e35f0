// Package cli implements the single-purpose generator commands (cmd/*-gen, listed in README.md's
// generator table) as functions of their arguments, with code-generator's and controller-gen's flags, so
// the binaries are one line and tests run them in process.
package cli
