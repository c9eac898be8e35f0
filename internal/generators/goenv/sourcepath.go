package goenv

import (
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/module"
)

// SourcePath turns a file name that export data records into a path on disk. The standard library's
// names are relative to $GOROOT, and with -trimpath (GOFLAGS=-trimpath) a dependency's are
// "module@version/dir/file.go", found in the module cache where the go command unpacked them. Absolute
// names, and names it cannot place, are returned as they are.
func SourcePath(name string) string {
	if rest, ok := strings.CutPrefix(name, "$GOROOT"); ok {
		return filepath.Join(build.Default.GOROOT, filepath.FromSlash(rest))
	}
	if filepath.IsAbs(name) {
		return name
	}
	modVersion, rel, ok := strings.Cut(filepath.ToSlash(name), "/")
	for ok && !strings.Contains(modVersion, "@") {
		var next string
		next, rel, ok = strings.Cut(rel, "/")
		modVersion += "/" + next
	}
	mod, version, found := strings.Cut(modVersion, "@")
	if !found {
		return name
	}
	escMod, err1 := module.EscapePath(mod)
	escVersion, err2 := module.EscapeVersion(version)
	cache := moduleCache()
	if err1 != nil || err2 != nil || cache == "" {
		return name
	}
	return filepath.Join(cache, filepath.FromSlash(escMod+"@"+escVersion), filepath.FromSlash(rel))
}

// moduleCache is the go command's module cache directory: $GOMODCACHE, or else asked of the go command
// once (it may be set with go env -w).
var moduleCache = sync.OnceValue(func() string {
	if dir := os.Getenv("GOMODCACHE"); dir != "" {
		return dir
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})
