// Command register-gen generates the scheme registration of API packages (zz_generated.register.go). It
// takes the same flags as k8s.io/code-generator's register-gen, plus --verify.
package main

import (
	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("register-gen", cli.RegisterGen) }
