// Command informer-gen generates a shared informer factory and typed informers for API packages. It takes the same flags as
// k8s.io/code-generator's informer-gen, plus --verify.
package main

import (
	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("informer-gen", cli.InformerGen) }
