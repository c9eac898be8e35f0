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
)

// Vars are the settings that decide which files a load reads and how it types them.
var Vars = []string{"GOVERSION", "GOROOT", "GOFLAGS", "GOOS", "GOARCH", "GOEXPERIMENT", "CGO_ENABLED",
	"GOWORK", "GOMOD", "GOMODCACHE", "GOTOOLCHAIN", "GO111MODULE", "GOPATH", "GOAMD64", "GOARM", "GOARM64", "GO386"}

// Write runs `go env` for vars in dir (the current directory if empty), writes its output and the name
// and content hash of go.mod, go.sum, vendor/modules.txt, go.work and go.work.sum (as GOMOD and GOWORK
// name them) to w, and returns the settings.
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
	var files []string
	if mod := env["GOMOD"]; mod != "" && mod != os.DevNull {
		modDir := filepath.Dir(mod)
		files = append(files, mod, filepath.Join(modDir, "go.sum"), filepath.Join(modDir, "vendor", "modules.txt"))
	}
	if work := env["GOWORK"]; work != "" && work != "off" {
		files = append(files, work, work+".sum")
	}
	for _, name := range files {
		content, err := os.ReadFile(name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		w.Write([]byte(name))
		w.Write([]byte{0})
		sum := sha256.Sum256(content)
		w.Write(sum[:])
	}
	return env, nil
}
