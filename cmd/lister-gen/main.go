// Command lister-gen generates typed listers for API packages. It takes the same flags as
// k8s.io/code-generator's lister-gen, plus --verify.
package main

import (
	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("lister-gen", cli.ListerGen) }
