// Package gofile renders one generated Go file: templates refer to runtime identifiers through the typed
// symbol table (GoIdent values, Symbols) and to the input and output packages' identifiers by import path;
// imports are tracked and aliased, and the result is gofmt'ed in process.
package gofile
