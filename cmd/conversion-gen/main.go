// Command conversion-gen generates conversion functions between API types and their peers (internal or
// hub versions). It takes the same flags and tags as k8s.io/code-generator's conversion-gen, plus
// --verify.
package main

import (
	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("conversion-gen", cli.ConversionGen) }
