package kgencmd

import (
	"path/filepath"
	"slices"

	"github.com/kgen-dev/kgen/internal/generators/clientgen"
	"github.com/kgen-dev/kgen/internal/generators/informergen"
)

// ownOutputDirs are the absolute directories this run writes its apply configuration, client, lister and
// informer packages into: the load leaves out the packages there that are wholly such generated code, so
// an output directory inside the input tree costs no type-checking of the last run's output.
func ownOutputDirs(o generateOptions) []string {
	if o.outputDir == "" {
		return nil
	}
	runs := func(name string) bool { return !slices.Contains(o.skip, name) }
	var dirs []string
	if o.withApplyConfig && runs(genApplyConfig) {
		dirs = append(dirs, filepath.Join(o.outputDir, o.applyConfigName))
	}
	if runs(genClient) {
		dirs = append(dirs, clientgen.Config{OutputDir: filepath.Join(o.outputDir, o.clientsetName), ClientsetName: o.versionedName}.Dir())
	}
	if o.withWatch && runs(genLister) {
		dirs = append(dirs, filepath.Join(o.outputDir, o.listersName))
	}
	if o.withWatch && runs(genInformer) {
		dirs = append(dirs, informergen.Config{OutputDir: filepath.Join(o.outputDir, o.informersName)}.Dir())
	}
	for i, d := range dirs {
		if abs, err := filepath.Abs(d); err == nil {
			dirs[i] = abs
		}
	}
	return dirs
}
