// Command openapi-gen generates OpenAPI definitions (GetOpenAPIDefinitions) for API packages, their
// OpenAPIModelName methods and the API rule violation report. It takes the same flags as
// k8s.io/kube-openapi's openapi-gen, plus --verify.
package main

import (
	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("openapi-gen", cli.OpenAPIGen) }
