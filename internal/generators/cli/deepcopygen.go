package cli

import (
	"io"

	"github.com/kgen-dev/kgen/internal/generators/deepcopygen"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// DeepCopyGen runs deepcopy-gen with command-line arguments args (without the program name).
func DeepCopyGen(args []string, stdout, stderr io.Writer) error {
	return runInPackage(deepcopygen.Generator, "generated.deepcopy.go",
		func(prog *load.Program, outputFile string, header []byte, warn func(string), set *output.Set) error {
			return deepcopygen.Generate(prog, deepcopygen.Config{OutputFile: outputFile, Header: header, Warn: warn}, set)
		}, args, stdout, stderr)
}
