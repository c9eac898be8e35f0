package cli

import (
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
)

// loadModel loads the packages patterns match, as every generator command does, and builds their model.
func loadModel(patterns []string, opts model.Options) (*model.Model, error) {
	prog, err := load.Load(load.Config{}, patterns...)
	if err != nil {
		return nil, err
	}
	return model.FromProgram(prog, prog.Packages, opts)
}
