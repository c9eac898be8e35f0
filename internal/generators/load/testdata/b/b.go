// Package b is an input package reaching package a through package c.
package b

import "github.com/kgen-dev/kgen/internal/generators/load/testdata/c"

// Outer refers to c.
type Outer struct{ H c.Holder }

var _ = undefinedName
