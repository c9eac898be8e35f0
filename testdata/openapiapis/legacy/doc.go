// Package legacy has types tagged one by one and no model package: definitions are keyed by Go
// import path.
package legacy
