// Package c is a dependency that imports the input package a.
package c

import "github.com/kgen-dev/kgen/internal/generators/load/testdata/a"

// Holder refers to an input package's type.
type Holder struct{ W a.Widget }
