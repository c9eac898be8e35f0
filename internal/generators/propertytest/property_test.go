package propertytest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgen-dev/kgen/internal/kgencmd"
)

// seedsInTest is how many random packages TestRandomAPIs runs: enough for every kind of field and bad
// tag to come up, few enough that the one build of the good ones stays within a minute on 2 cores.
const seedsInTest = 12

// TestRandomAPIs runs the property over a fixed range of seeds: the good packages are generated together
// in one kgen generate run and built and vetted in one go; each bad one is generated alone and must be
// refused.
func TestRandomAPIs(t *testing.T) {
	seeds := make([]int64, seedsInTest)
	for i := range seeds {
		seeds[i] = int64(i + 1)
	}
	check(t, seeds)
}

// FuzzGenerate runs the property on one random package per input seed (make fuzz).
func FuzzGenerate(f *testing.F) {
	f.Add(int64(53)) // a malformed +mapType; testdata/fuzz holds more
	f.Fuzz(func(t *testing.T, seed int64) { check(t, []int64{seed}) })
}

// check generates the random package of every seed and checks the property.
func check(t *testing.T, seeds []int64) {
	base, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var good, bad []Package
	for i, seed := range seeds {
		p := Random(seed, i)
		if p.Bad != "" {
			bad = append(bad, p)
		} else {
			good = append(good, p)
		}
	}
	if len(good) > 0 {
		checkGood(t, base, good)
	}
	for _, p := range bad {
		checkBad(t, base, p)
	}
	t.Logf("%d random packages: %d generated, built and vetted; %d refused as expected", len(seeds), len(good), len(bad))
}

// checkGood generates the packages in one run and builds and vets the packages and the generated code.
func checkGood(t *testing.T, base string, pkgs []Package) {
	t.Helper()
	dir, importPath := workDir(t, base)
	for _, p := range pkgs {
		write(t, dir, p)
	}
	start := time.Now()
	code, stderr := generate(t, dir, importPath)
	t.Logf("kgen generate of %d packages: %.1fs", len(pkgs), time.Since(start).Seconds())
	if code != 0 {
		t.Fatalf("kgen generate refused good packages (%s): exit %d\n%s", describe(pkgs), code, stderr)
	}
	var dirs []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if files, _ := filepath.Glob(filepath.Join(p, "*.go")); len(files) > 0 {
				dirs = append(dirs, p)
			}
		}
		return err
	})
	for _, args := range [][]string{{"build"}, {"vet"}} {
		start := time.Now()
		cmd := exec.Command("go", append(args, dirs...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s of the generated code for %s: %v\n%s", args[0], describe(pkgs), err, out)
		}
		t.Logf("go %s of %d packages: %.1fs", args[0], len(dirs), time.Since(start).Seconds())
	}
}

// checkBad generates the one bad package p and checks the refusal: exit 1, an error naming types.go's
// line and the problem, and no file written.
func checkBad(t *testing.T, base string, p Package) {
	t.Helper()
	dir, importPath := workDir(t, base)
	write(t, dir, p)
	code, stderr := generate(t, dir, importPath)
	where := filepath.Join(dir, "apis", p.Group, p.Version, "types.go") + ":" + strconv.Itoa(p.BadLine) + ":"
	if code != 1 || !strings.Contains(stderr, where) || !strings.Contains(stderr, p.Bad) {
		t.Errorf("kgen generate on %s (bad: %s at line %d): exit %d, want 1 with an error at %s naming it:\n%s\ntypes.go:\n%s",
			describe([]Package{p}), p.Bad, p.BadLine, code, where, stderr, numbered(p.Files["types.go"]))
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "doc.go" && d.Name() != "types.go" {
			t.Errorf("a refused run wrote %s", path)
		}
		return err
	})
}

// generate runs kgen generate with all six generators on dir's apis directory. It changes directory
// itself rather than with t.Chdir, which a fuzzing worker cannot call (it sets PWD).
func generate(t *testing.T, dir, importPath string) (int, string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var stdout, stderr bytes.Buffer
	code := kgencmd.Main([]string{"generate", "--output-dir", "generated", "--output-pkg", importPath + "/generated",
		"--with-watch", "--with-applyconfig", "--applyconfig-externals", strings.Join(Externals, ","), "apis"}, &stdout, &stderr)
	return code, stderr.String()
}

// workDir makes a directory under base, the package's testdata (inside this module, so the packages
// build against its dependencies), and returns it with its import path.
func workDir(t *testing.T, base string) (string, string) {
	t.Helper()
	dir, err := os.MkdirTemp(base, "gen-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir, "github.com/kgen-dev/kgen/internal/generators/propertytest/testdata/" + filepath.Base(dir)
}

func write(t *testing.T, dir string, p Package) {
	t.Helper()
	pkgDir := filepath.Join(dir, "apis", p.Group, p.Version)
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range p.Files {
		if err := os.WriteFile(filepath.Join(pkgDir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func describe(pkgs []Package) string {
	var names []string
	for _, p := range pkgs {
		names = append(names, p.Group+"/"+p.Version)
	}
	return strings.Join(names, ", ")
}

func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%4d %s\n", i+1, l)
	}
	return b.String()
}
