package cli

import (
	"io"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/registergen"
)

// RegisterGen runs register-gen with command-line arguments args (without the program name).
func RegisterGen(args []string, stdout, stderr io.Writer) error {
	return runInPackage(registergen.Generator, "generated.register.go",
		func(prog *load.Program, outputFile string, header []byte, warn func(string), set *output.Set) error {
			return registergen.Generate(prog, registergen.Config{OutputFile: outputFile, Header: header, Warn: warn}, set)
		}, args, stdout, stderr)
}
