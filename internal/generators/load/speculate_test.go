//go:build linux

package load

import (
	"path/filepath"
	"testing"
)

// TestSpeculativeLoad: once both memos hold a module's load, the next load runs while go env does and
// is used when the settings confirm the memos' keys; a change the settings reveal (here, to go.mod)
// drops it and the load starts over with go list.
func TestSpeculativeLoad(t *testing.T) {
	isolateUserCache(t)
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":          "module example.com/speculate\n\ngo 1.26\n",
		"api/v1/types.go": "package v1\n\nimport \"time\"\n\ntype T struct{ At time.Time }\n",
	})
	settle(t, dir)
	load := func() *Program {
		t.Helper()
		prog, err := Load(Config{Dir: dir}, "./api/...")
		if err != nil {
			t.Fatal(err)
		}
		return prog
	}
	fieldType := func(prog *Program) string {
		t.Helper()
		obj := prog.Package("example.com/speculate/api/v1").Types.Scope().Lookup("T")
		return obj.Type().Underlying().String()
	}
	for range 2 { // go list, then the listing memo (which records the export data memo it used)
		load()
	}
	used := speculationsUsed.Load()
	prog := load()
	if speculationsUsed.Load() != used+1 {
		t.Fatal("a load both memos hold was not run speculatively")
	}
	if got := fieldType(prog); got != "struct{At time.Time}" {
		t.Fatalf("T = %s", got)
	}
	// A type edit keeps both memos; the speculative load reads the new file.
	rewrite(t, filepath.Join(dir, "api/v1/types.go"), "At time.Time", "At time.Duration")
	prog = load()
	if speculationsUsed.Load() != used+2 || fieldType(prog) != "struct{At time.Duration}" {
		t.Fatalf("after a type edit: speculations %d, T = %s", speculationsUsed.Load()-used, fieldType(prog))
	}
	// go.mod changes the listing memo's key, which only the settings show.
	appendFile(t, filepath.Join(dir, "go.mod"), "\n// a comment\n")
	runs := goListRuns.Load()
	prog = load()
	if speculationsUsed.Load() != used+2 {
		t.Fatal("a speculative load was used although go.mod changed")
	}
	if goListRuns.Load() == runs {
		t.Fatal("no go list after go.mod changed")
	}
	if got := fieldType(prog); got != "struct{At time.Duration}" {
		t.Fatalf("T = %s after starting over", got)
	}
}
