// Package goenv identifies the go command's view of a build, for records that must be forgotten when it
// changes: the go env settings that decide which files a load reads and how the compiler types them, and
// the content of the module and workspace files those settings name.
package goenv

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// Vars are the settings that decide which files a load reads and how it types them.
var Vars = []string{"GOVERSION", "GOROOT", "GOFLAGS", "GOOS", "GOARCH", "GOEXPERIMENT", "CGO_ENABLED",
	"GOWORK", "GOMOD", "GOMODCACHE", "GOTOOLCHAIN", "GO111MODULE", "GOPATH", "GOAMD64", "GOARM", "GOARM64", "GO386"}

// Write runs `go env` for vars in dir (the current directory if empty), writes its output and the name
// and content hash of the module files ModFiles names to w, and returns the settings.
func Write(w io.Writer, dir string, vars []string) (map[string]string, error) {
	cmd := exec.Command("go", append([]string{"env", "-json"}, vars...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	w.Write(out)
	var env map[string]string
	if err := json.Unmarshal(out, &env); err != nil {
		return nil, err
	}
	for _, name := range ModFiles(env) {
		content, err := os.ReadFile(name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		w.Write([]byte(name))
		w.Write([]byte{0})
		if err != nil {
			w.Write([]byte("absent")) // unlike an empty file
			continue
		}
		sum := sha256.Sum256(content)
		w.Write(sum[:])
	}
	return env, nil
}

// ModFiles returns the files that decide the module graph of a build with the settings env (GOMOD and
// GOWORK): the main module's go.mod, go.sum and vendor/modules.txt, go.work and go.work.sum, and the
// go.mod and go.sum of every local module the main go.mod or go.work replaces or uses, whose requirements
// take part in choosing module versions. Some may not exist.
func ModFiles(env map[string]string) []string {
	var files []string
	gomod, gowork := env["GOMOD"], env["GOWORK"]
	if gomod != "" && gomod != os.DevNull {
		modDir := filepath.Dir(gomod)
		files = append(files, gomod, filepath.Join(modDir, "go.sum"), filepath.Join(modDir, "vendor", "modules.txt"))
	}
	if gowork != "" && gowork != "off" {
		files = append(files, gowork, gowork+".sum")
	}
	return append(files, localModFiles(gomod, gowork)...)
}

// NamesFiles reports whether the GOFLAGS of env name files that decide a build beyond ModFiles (an
// alternative go.mod, an overlay of file contents), which no record of a build covers.
func NamesFiles(env map[string]string) bool {
	flags := env["GOFLAGS"]
	return strings.Contains(flags, "-modfile") || strings.Contains(flags, "-overlay")
}

// localModFiles returns the go.mod and go.sum files of the local modules the main module's go.mod or the
// workspace's go.work replaces or uses.
func localModFiles(gomod, gowork string) []string {
	var dirs []string
	addReplaces := func(base string, reps []*modfile.Replace) {
		for _, r := range reps {
			if r.New.Version == "" && modfile.IsDirectoryPath(r.New.Path) {
				d := r.New.Path
				if !filepath.IsAbs(d) {
					d = filepath.Join(base, d)
				}
				dirs = append(dirs, d)
			}
		}
	}
	var mains []string
	if gomod != "" && gomod != os.DevNull {
		mains = append(mains, gomod)
	}
	if gowork != "" && gowork != "off" {
		if data, err := os.ReadFile(gowork); err == nil {
			if wf, err := modfile.ParseWork(gowork, data, nil); err == nil {
				base := filepath.Dir(gowork)
				for _, u := range wf.Use {
					d := u.Path
					if !filepath.IsAbs(d) {
						d = filepath.Join(base, d)
					}
					dirs = append(dirs, d)
					mains = append(mains, filepath.Join(d, "go.mod"))
				}
				addReplaces(base, wf.Replace)
			}
		}
	}
	for _, m := range mains {
		if data, err := os.ReadFile(m); err == nil {
			if mf, err := modfile.Parse(m, data, nil); err == nil { // ParseLax would drop replace directives
				addReplaces(filepath.Dir(m), mf.Replace)
			}
		}
	}
	var files []string
	for _, d := range dirs {
		files = append(files, filepath.Join(d, "go.mod"), filepath.Join(d, "go.sum"))
	}
	slices.Sort(files)
	return slices.Compact(files)
}
