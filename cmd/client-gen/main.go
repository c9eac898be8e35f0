// Command client-gen generates a typed clientset, its fake and its scheme for API packages. It takes the same flags as
// k8s.io/code-generator's client-gen, plus --verify.
package main

import (
	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("client-gen", cli.ClientGen) }
