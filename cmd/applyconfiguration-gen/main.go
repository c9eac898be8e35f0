// Command applyconfiguration-gen generates apply configurations (server-side apply builders, extractors
// and their structured-merge-diff schema) for API packages. It takes the same flags as
// k8s.io/code-generator's applyconfiguration-gen, plus --verify, and its output imports kgen and
// k8s.io/apimachinery only.
package main

import (
	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("applyconfiguration-gen", cli.ApplyConfigurationGen) }
