// Command deepcopy-gen generates DeepCopyInto, DeepCopy and DeepCopy<Interface> methods for API types.
// It takes the same flags and tags as k8s.io/code-generator's deepcopy-gen, plus --verify.
package main

import (
	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("deepcopy-gen", cli.DeepCopyGen) }
