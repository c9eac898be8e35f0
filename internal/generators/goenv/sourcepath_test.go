package goenv

import (
	"path/filepath"
	"testing"
)

func TestSourcePathFindsTrimmedPositionsInTheModuleCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("GOMODCACHE", cache)
	for name, want := range map[string]string{
		// -trimpath export data names files by module@version and the path inside the module.
		"k8s.io/api@v0.37.2/core/v1/types.go":     filepath.Join(cache, "k8s.io", "api@v0.37.2", "core", "v1", "types.go"),
		"github.com/Foo/Bar@v1.0.0-RC1/x/y.go":    filepath.Join(cache, "github.com", "!foo", "!bar@v1.0.0-!r!c1", "x", "y.go"),
		filepath.Join(cache, "already", "abs.go"): filepath.Join(cache, "already", "abs.go"),
		"fmt/print.go": "fmt/print.go", // the standard library: no module version to find
	} {
		if got := SourcePath(name); got != want {
			t.Errorf("SourcePath(%q) = %q, want %q", name, got, want)
		}
	}
}
