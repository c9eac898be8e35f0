package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Listing is a package as the go command lists it for a load's build: what a generator needs to parse a
// package that the inputs' types or tags lead to.
type Listing struct {
	// Path is the import path, Name the package name and Dir the directory holding its files.
	Path, Name, Dir string
	// GoFiles are the full paths of the package's Go files for the build, cgo files included (without
	// test files), in the go command's order.
	GoFiles []string
}

// listings holds the packages listed after a load, for paths its own listing lacks.
type listings struct {
	dir    string // where the go command runs
	mu     sync.Mutex
	byPath map[string]*Listing
}

// Listings returns the listings of the packages with import paths paths, in order: those of the input
// packages and their dependencies from the load's own listing, and any other package of the build from one
// more `go list` for all of them (a tag may name a type in a package the inputs do not import), remembered
// for later calls. It fails when the go command does, or when it reports an error for one of them. It is
// safe for concurrent use.
func (p *Program) Listings(paths ...string) ([]*Listing, error) {
	out := make([]*Listing, len(paths))
	var missing []string
	p.listings.mu.Lock()
	defer p.listings.mu.Unlock()
	for i, path := range paths {
		if l := p.imp.byPath[path]; l != nil && l.Error == nil && l.Dir != "" {
			out[i] = l.listing()
		} else if out[i] = p.listings.byPath[path]; out[i] == nil {
			missing = append(missing, path)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	listed, err := listOnly(p.listings.dir, missing)
	if err != nil {
		return nil, err
	}
	if p.listings.byPath == nil {
		p.listings.byPath = map[string]*Listing{}
	}
	for _, l := range listed {
		p.listings.byPath[l.ImportPath] = l.listing()
	}
	for i, path := range paths {
		if out[i] == nil {
			if out[i] = p.listings.byPath[path]; out[i] == nil {
				return nil, fmt.Errorf("go list %s: not listed", path)
			}
		}
	}
	return out, nil
}

// listing returns l as a Listing.
func (l *listed) listing() *Listing {
	files := make([]string, 0, len(l.GoFiles)+len(l.CgoFiles))
	for _, names := range [][]string{l.GoFiles, l.CgoFiles} {
		for _, name := range names {
			files = append(files, filepath.Join(l.Dir, name))
		}
	}
	return &Listing{Path: l.ImportPath, Name: l.Name, Dir: l.Dir, GoFiles: files}
}

// listOnly runs `go list` in dir for the packages paths, without their dependencies, and fails if it
// reports an error for any of them.
func listOnly(dir string, paths []string) ([]*listed, error) {
	goListRuns.Add(1)
	cmd := exec.Command("go", append([]string{"list", "-e", "-json=ImportPath,Name,Dir,GoFiles,CgoFiles,Error", "--"}, paths...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(paths, " "), err, stderr.Bytes())
	}
	var all []*listed
	var errs []string
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		l := new(listed)
		if err := dec.Decode(l); err != nil {
			return nil, fmt.Errorf("reading go list output: %w", err)
		}
		if l.Error != nil {
			errs = append(errs, strings.TrimSpace(l.Error.Err))
			continue
		}
		all = append(all, l)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("listing packages %v:\n%s", paths, strings.Join(errs, "\n"))
	}
	return all, nil
}
