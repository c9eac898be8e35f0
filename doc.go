// Package kgen is the root of the kgen toolchain: code generators for Kubernetes API types (listed in
// README.md's generator table; kgen generate runs them all from one load) and the runtime the generated
// code targets. See README.md for the layout and docs/ARCHITECTURE.md for the data path, the package
// rules and where new work goes.
package kgen
