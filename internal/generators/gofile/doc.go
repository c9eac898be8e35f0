// Package gofile renders one generated Go file: templates refer to runtime identifiers through the typed
// symbol table (GoIdent values, Symbols) and to the input and output packages' identifiers by import path;
// imports are tracked and aliased. Templates write code in gofmt's layout, so a file is assembled without
// parsing and printing it again (File.ExactBytes); templates that align columns by name length are formatted in
// process (Renderer.Reformat).
package gofile
