// Command defaulter-gen generates RegisterDefaults and SetObjectDefaults_<Type> functions for API types.
// It takes the same flags and tags as k8s.io/code-generator's defaulter-gen, plus --verify.
package main

import (
	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("defaulter-gen", cli.DefaulterGen) }
