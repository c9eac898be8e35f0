// Package gofile renders one generated Go file: templates refer to other packages' identifiers by import
// path (or through the runtime symbol table), imports are tracked and aliased, and the result is gofmt'ed
// in process.
package gofile
