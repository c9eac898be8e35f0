//go:build linux

// The listing memo needs files' change times, which only Linux gives it (status_linux.go).

package load

import (
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestListMemo changes a module in the ways that do and do not change what `go list -deps` reports, and
// checks that a load takes the listing from the memo exactly when nothing that decides it changed, and that
// what it takes equals what go list reports then.
func TestListMemo(t *testing.T) {
	isolateUserCache(t)
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":          "module example.com/listmemo\n\ngo 1.26\n",
		"api/v1/types.go": "// Package v1 is an API.\npackage v1\n\nimport (\n\t\"time\"\n\n\t\"example.com/listmemo/conv\"\n)\n\ntype T struct {\n\tAt time.Time\n\tC  conv.C\n}\n",
		"api/v1/doc.go":   "package v1\n",
		"api/v2/types.go": "package v2\n\ntype U struct{ N int }\n",
		"conv/conv.go":    "package conv\n\nimport \"strings\"\n\ntype C struct{ B strings.Builder }\n",
		"api/README":      "not Go\n",
	})
	patterns := []string{"./api/..."}
	settle(t, dir)

	// list lists the packages as Load does and reports whether the listing came from the memo, after
	// checking it against go list's; a listing from go list is recorded.
	list := func(t *testing.T) bool {
		t.Helper()
		res, err := listNow(Config{Dir: dir, Deps: DepsSource}, patterns)
		if err != nil {
			t.Fatal(err)
		}
		if res.record != nil {
			res.record()
		}
		fresh, err := goList(dir, patterns, false, false)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(res.all)
		want, _ := json.Marshal(fresh)
		if string(got) != string(want) {
			t.Fatalf("listing (from the memo: %v):\n%s\nwant go list's:\n%s", res.fromMemo, got, want)
		}
		return res.fromMemo
	}
	if list(t) {
		t.Fatal("the first listing came from an empty memo")
	}

	// Nothing changed: a whole load runs no go list once the export data memo knows the dependencies
	// (which it does not for local packages that are not inputs, such as conv).
	inputs := []string{"./api/...", "./conv"}
	for range 2 {
		if _, err := Load(Config{Dir: dir, Deps: DepsExport}, inputs...); err != nil {
			t.Fatal(err)
		}
	}
	runs := goListRuns.Load()
	prog, err := Load(Config{Dir: dir}, inputs...)
	if err != nil {
		t.Fatal(err)
	}
	if n := goListRuns.Load() - runs; n != 0 || !prog.Deps.Listed || !prog.Deps.Remembered {
		t.Fatalf("unchanged module: %d go list runs, report %+v; want none, listing and export data remembered", n, prog.Deps)
	}
	if len(prog.Packages) != 3 || prog.Package("example.com/listmemo/api/v1").Types.Scope().Lookup("T") == nil {
		t.Fatalf("packages from the remembered listing: %v", prog.Packages)
	}
	// An edited type: the listing is remembered, and the input files (parsed while go env runs) are read
	// as they are now.
	appendFile(t, filepath.Join(dir, "api/v2/types.go"), "\ntype Added struct{}\n")
	prog, err = Load(Config{Dir: dir}, inputs...)
	if err != nil {
		t.Fatal(err)
	}
	if !prog.Deps.Listed || prog.Package("example.com/listmemo/api/v2").Types.Scope().Lookup("Added") == nil {
		t.Fatalf("after editing a type: report %+v, or the new type is missing", prog.Deps)
	}
	rewrite(t, filepath.Join(dir, "api/v2/types.go"), "\ntype Added struct{}\n", "")

	for _, c := range []struct {
		name     string
		change   func(t *testing.T)
		remember bool // the change leaves the listing as it was
	}{
		{"edited type", func(t *testing.T) {
			appendFile(t, filepath.Join(dir, "api/v1/types.go"), "\ntype Extra struct{ S string }\n")
		}, true},
		{"edited dependency body", func(t *testing.T) {
			appendFile(t, filepath.Join(dir, "conv/conv.go"), "\nfunc (c C) Len() int { return c.B.Len() }\n")
		}, true},
		{"rewritten with the same header", func(t *testing.T) {
			rewrite(t, filepath.Join(dir, "api/v2/types.go"), "type U struct{ N int }", "type U struct{ N, M int }")
		}, true},
		{"non-Go file edited", func(t *testing.T) { appendFile(t, filepath.Join(dir, "api/README"), "more\n") }, true},
		{"edited import", func(t *testing.T) {
			rewrite(t, filepath.Join(dir, "api/v2/types.go"), "package v2\n", "package v2\n\nimport _ \"errors\"\n")
		}, false},
		{"edited import of a local dependency", func(t *testing.T) {
			rewrite(t, filepath.Join(dir, "conv/conv.go"), "import \"strings\"", "import (\n\t\"strings\"\n\t_ \"fmt\"\n)")
		}, false},
		{"edited build constraint", func(t *testing.T) {
			rewrite(t, filepath.Join(dir, "api/v1/doc.go"), "package v1\n", "//go:build ignore\n\npackage v1\n")
		}, false},
		{"edited package doc comment", func(t *testing.T) {
			rewrite(t, filepath.Join(dir, "api/v1/types.go"), "// Package v1 is an API.", "// Package v1 is the API.")
		}, false},
		{"new file", func(t *testing.T) {
			writeFiles(t, dir, map[string]string{"api/v1/more.go": "package v1\n\nimport _ \"os\"\n"})
		}, false},
		{"renamed file", func(t *testing.T) {
			if err := os.Rename(filepath.Join(dir, "api/v1/more.go"), filepath.Join(dir, "api/v1/zmore.go")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"removed file", func(t *testing.T) {
			if err := os.Remove(filepath.Join(dir, "api/v1/zmore.go")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"new subpackage", func(t *testing.T) {
			writeFiles(t, dir, map[string]string{"api/v3/types.go": "package v3\n"})
		}, false},
		{"file in a directory that was no package", func(t *testing.T) {
			writeFiles(t, dir, map[string]string{"api/v3/sub/empty/x.txt": "x\n"})
			settle(t, dir)
			list(t)
			writeFiles(t, dir, map[string]string{"api/v3/sub/empty/x.go": "package empty\n"})
		}, false},
		{"excluded file becomes a package", func(t *testing.T) {
			writeFiles(t, dir, map[string]string{"api/v4/x.go": "//go:build ignore\n\npackage v4\n"})
			settle(t, dir)
			list(t)
			rewrite(t, filepath.Join(dir, "api/v4/x.go"), "//go:build ignore\n\n", "")
		}, false},
		{"nested module", func(t *testing.T) {
			writeFiles(t, dir, map[string]string{"api/v3/go.mod": "module example.com/v3\n\ngo 1.26\n"})
		}, false},
		{"go.mod edit", func(t *testing.T) { appendFile(t, filepath.Join(dir, "go.mod"), "\n// a comment\n") }, false},
		{"directory walked by the pattern removed", func(t *testing.T) {
			if err := os.RemoveAll(filepath.Join(dir, "api/v4")); err != nil {
				t.Fatal(err)
			}
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.change(t)
			if got := list(t); got != c.remember {
				t.Fatalf("listing from the memo: %v, want %v", got, c.remember)
			}
			// What go list reported is recorded for the next load.
			settle(t, dir)
			list(t)
			if !list(t) {
				t.Fatal("the listing after the change was not remembered")
			}
		})
	}

	// Other settings, another record, whether they come from the environment or the go env file (found
	// under the same record, then told apart by its key); an import path pattern, no memo.
	t.Setenv("GOFLAGS", "-tags=kgenlistmemo")
	if list(t) {
		t.Error("a listing was remembered across GOFLAGS")
	}
	goenvFile := filepath.Join(t.TempDir(), "env")
	os.WriteFile(goenvFile, nil, 0o644)
	t.Setenv("GOENV", goenvFile)
	list(t)
	if !list(t) {
		t.Error("a listing under an empty go env file was not remembered")
	}
	os.WriteFile(goenvFile, []byte("GOEXPERIMENT=\nGOAMD64=v2\n"), 0o644)
	if list(t) {
		t.Error("a listing was remembered across a go env file's settings")
	}
	// GOFLAGS naming an alternative go.mod: its content decides the listing, so there is no memo.
	os.WriteFile(goenvFile, nil, 0o644)
	os.WriteFile(filepath.Join(dir, "alt.mod"), []byte("module example.com/listmemo\n\ngo 1.26\n"), 0o644)
	t.Setenv("GOFLAGS", "-modfile=alt.mod")
	list(t)
	if list(t) {
		t.Error("a listing under -modfile was remembered")
	}
	t.Setenv("GOFLAGS", "")
	patterns = []string{"example.com/listmemo/api/..."}
	list(t)
	if list(t) {
		t.Error("a listing of an import path pattern was remembered")
	}
}

// TestListMemoRacy checks that a listing is not recorded with the status of a file changed after go list
// read it.
func TestListMemoRacy(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("GOWORK", "off")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/racy\n\ngo 1.26\n",
		"a/a.go": "package a\n",
	})
	settle(t, dir)
	res, err := listNow(Config{Dir: dir, Deps: DepsSource}, []string{"./..."})
	if err != nil || res.record == nil {
		t.Fatalf("listing: %v, record %v", err, res.record != nil)
	}
	rewrite(t, filepath.Join(dir, "a/a.go"), "package a\n", "package a\n\nimport _ \"errors\"\n")
	res.record()
	again, err := listNow(Config{Dir: dir, Deps: DepsSource}, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	if again.fromMemo || len(again.all) < 2 {
		t.Fatalf("a listing was recorded with a file changed after go list ran (from the memo: %v, %d packages)", again.fromMemo, len(again.all))
	}
}

// settle waits until files written now are no longer racy for the memo.
func settle(t *testing.T, dir string) {
	t.Helper()
	st, err := statFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	wait := 2 * racyWindow
	if st.Change%int64(time.Second) == 0 {
		wait = 2*time.Second + racyWindow
	}
	time.Sleep(wait)
}

func appendFile(t *testing.T, name, text string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func rewrite(t *testing.T, name, old, new string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not hold %q", name, old)
	}
	if err := os.WriteFile(name, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// listNow lists as Load does once go env has run.
func listNow(cfg Config, patterns []string) (*listing, error) {
	settingsc := make(chan *settings, 1)
	settingsc <- readSettings(cfg.Dir)
	return listPackages(cfg, patterns, token.NewFileSet(), settingsc)
}
