package kgencmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kgen-dev/kgen/internal/generators/fingerprint"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// noop is kgen generate's record of its last run with the same flags, which lets a rerun with nothing
// changed finish without loading types. A nil noop (no cache directory, --force) records and skips nothing.
type noop struct {
	fp       *fingerprint.Fingerprint
	inputDir string
	force    bool
}

// startNoop returns the record of the invocation o over inputDir with the header it read.
func startNoop(o generateOptions, inputDir string, header []byte) *noop {
	key := o
	key.verify, key.verbose, key.force = false, false, false // same output; --verify may use a run's record
	invocation := fmt.Sprintf("%#v\x00%s\x00%q\x00%d\x00%v", key, inputDir, header, time.Now().Year(), output.UnderGoGenerate())
	fp, err := fingerprint.New(invocation)
	if err != nil {
		return nil
	}
	return &noop{fp: fp, inputDir: inputDir, force: o.force}
}

// unchanged reports whether the last run's inputs and outputs are as it left them, and how many files it
// generated; otherwise it notes the inputs' status before the load reads them.
func (n *noop) unchanged(o generateOptions) (int, bool) {
	if n == nil {
		return 0, false
	}
	if !n.force {
		if files, ok := n.fp.Unchanged(); ok {
			return files, true
		}
	}
	if err := n.fp.Begin(n.inputs(o)); err != nil {
		n.fp = nil
	}
	return 0, false
}

// inputs are the files a run reads before it knows its dependencies: the input tree and the schema file.
func (n *noop) inputs(o generateOptions) fingerprint.Sources {
	in := fingerprint.Sources{Trees: []string{n.inputDir}, SkipPackages: true}
	if o.applyConfigSchema != "" {
		in.Files = append(in.Files, o.applyConfigSchema)
	}
	return in
}

// discard forgets the last run's record before this one writes anything.
func (n *noop) discard() {
	if n != nil && n.fp != nil {
		n.fp.Discard()
	}
}

// save records a run that left sets on disk (removed lists the stale files it removed).
func (n *noop) save(files int, prog *load.Program, sets []*output.Set, removed []string) {
	if n == nil || n.fp == nil {
		return
	}
	var outputs fingerprint.Sources
	written := append([]string(nil), removed...)
	for _, s := range sets {
		paths := s.Paths()
		outputs.Files = append(outputs.Files, paths...)
		written = append(written, paths...)
		for _, p := range paths {
			outputs.Dirs = append(outputs.Dirs, filepath.Dir(p))
		}
		for _, root := range s.Roots {
			if root != n.inputDir { // deepcopy and register own the input tree, which the inputs cover
				outputs.Trees = append(outputs.Trees, root)
			}
		}
	}
	// What the load found it read: the local packages the inputs import, and what decides which module each
	// local package belongs to, a go.mod in a directory between it and its module's root, present or not
	// (the input tree, where the run writes, is among the inputs already).
	read := fingerprint.Sources{Dirs: prog.LocalDirs()}
	for _, d := range prog.ModuleBounds() {
		if rel, err := filepath.Rel(n.inputDir, d); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		gomod := filepath.Join(d, "go.mod")
		if _, err := os.Lstat(gomod); errors.Is(err, fs.ErrNotExist) {
			read.Absent = append(read.Absent, gomod)
		} else {
			read.Files = append(read.Files, gomod)
		}
	}
	n.fp.Save(files, read, outputs, written)
}
