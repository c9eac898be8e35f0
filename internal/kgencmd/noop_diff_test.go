package kgencmd

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var (
	noopSteps = flag.Int("noop.steps", 16, "edits TestNoopRecordAgainstFreshRuns makes")
	noopSeed  = flag.Uint64("noop.seed", 0, "seed of TestNoopRecordAgainstFreshRuns's edits (0: from the clock)")
)

// diffState is what TestNoopRecordAgainstFreshRuns's copy of examples/crd holds beyond the example: local
// packages, files read through symbolic links, a replaced local module and a nested module, each of which
// an edit changes.
type diffState struct {
	extraFields  int    // fields of the API's Extra, a plain input edit
	commonFields int    // fields of deps/common's Detail, a local dependency of the main module
	noteFields   int    // fields of deps/common's Note, in a file the package reads through a link
	linkTarget   int    // which of two files the API's linked.go links to
	linkedFields [2]int // fields of Linked in each of them
	libFields    int    // fields of the replaced module's Kind
	libGo        string // the replaced module's go version: 1.99 fails the build under GOTOOLCHAIN=local
	nested       bool   // api/stable/v2 holds a go.mod (a nested module) rather than joining the module
	depsModule   bool   // deps holds a go.mod, which takes deps/common out of the main module
	morePkg      bool   // the API imports one more local package, deps/more
}

// fields renders n fields of type typ named prefix0..prefixN-1.
func fields(prefix, typ string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "\t%s%d %s `json:\"%s%d,omitempty\"`\n", prefix, i, typ, strings.ToLower(prefix), i)
	}
	return b.String()
}

// files renders the state's files; a nil content means the file is absent, and a content starting with
// "-> " is a symbolic link to the rest.
func (s diffState) files() map[string]*string {
	str := func(v string) *string { return &v }
	moreImport, moreField := "", ""
	if s.morePkg {
		moreImport, moreField = "\t\"example.com/crd/deps/more\"\n", "\tMore more.More `json:\"more,omitempty\"`\n"
	}
	files := map[string]*string{
		"api/stable/v1/extra.go": str("package v1\n\nimport (\n\t\"example.com/crd/deps/common\"\n" + moreImport + "\t\"example.com/lib/kinds\"\n)\n\n" +
			"// Extra gathers types of local packages.\ntype Extra struct {\n" +
			"\tPhase  common.Phase  `json:\"phase,omitempty\"`\n\tDetail common.Detail `json:\"detail,omitempty\"`\n" +
			"\tKind   kinds.Kind    `json:\"kind,omitempty\"`\n\tLinked Linked        `json:\"linked,omitempty\"`\n" +
			moreField + fields("Extra", "[]string", s.extraFields) + "}\n"),
		"deps/more/more.go":       str("package more\n\n// More is a type of a package the API imports or not.\ntype More struct {\n\tCount int32 `json:\"count\"`\n}\n"),
		"api/stable/v1/linked.go": str(fmt.Sprintf("-> ../../../shared/linked_%d", s.linkTarget)),
		"shared/linked_0":         str("package v1\n\n// Linked is read through a link.\ntype Linked struct {\n" + fields("Zero", "*int32", s.linkedFields[0]) + "}\n"),
		"shared/linked_1":         str("package v1\n\n// Linked is read through a link.\ntype Linked struct {\n" + fields("One", "[]int64", s.linkedFields[1]) + "}\n"),
		"deps/common/phase.go": str("package common\n\n// Phase is a local type.\ntype Phase string\n\n" +
			"// Detail is a local struct.\ntype Detail struct {\n\tNote Note `json:\"note,omitempty\"`\n" + fields("Common", "string", s.commonFields) + "}\n"),
		"deps/common/note.go":    str("-> ../../shared/common_note"),
		"shared/common_note":     str("package common\n\n// Note is read through a link.\ntype Note struct {\n" + fields("Note", "int32", s.noteFields) + "}\n"),
		"lib/go.mod":             str("module example.com/lib\n\ngo " + s.libGo + "\n"),
		"lib/kinds/kinds.go":     str("package kinds\n\n// Kind is a type of a replaced local module.\ntype Kind struct {\n" + fields("Lib", "string", s.libFields) + "}\n"),
		"api/stable/v2/doc.go":   str("// +k8s:deepcopy-gen=package\n\npackage v2\n"),
		"api/stable/v2/types.go": str("package v2\n\n// Other is a type of a directory that is a module or not.\ntype Other struct {\n\tNames []string `json:\"names\"`\n}\n"),
		"api/stable/v2/go.mod":   nil,
		"deps/go.mod":            nil,
	}
	if s.nested {
		files["api/stable/v2/go.mod"] = str("module example.com/nested\n\ngo 1.26\n")
	}
	if s.depsModule {
		files["deps/go.mod"] = str("module example.com/crd/deps\n\ngo 1.26\n")
	}
	return files
}

// apply makes root hold the state's files, writing only those that differ.
func (s diffState) apply(t *testing.T, root string) {
	t.Helper()
	for name, content := range s.files() {
		path := filepath.Join(root, name)
		if content == nil {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			continue
		}
		if target, ok := strings.CutPrefix(*content, "-> "); ok {
			if old, err := os.Readlink(path); err == nil && old == target {
				continue
			}
			os.Remove(path)
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if old, err := os.ReadFile(path); err == nil && string(old) == *content {
			continue
		}
		write(t, path, *content)
	}
}

// diffModule copies examples/crd's module files and API into a new directory, adds what s holds, and
// returns the directory.
func diffModule(t *testing.T, s diffState) string {
	t.Helper()
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	example := filepath.Join(repo, "examples", "crd")
	root := t.TempDir()
	for _, name := range []string{"go.sum", "hack/boilerplate.go.txt", "api/stable/v1/doc.go"} {
		content, err := os.ReadFile(filepath.Join(example, name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(root, name), string(content))
	}
	gomod, err := os.ReadFile(filepath.Join(example, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mod := strings.Replace(string(gomod), "=> ../..", "=> "+repo, 1) +
		"\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ./lib\n"
	write(t, filepath.Join(root, "go.mod"), mod)
	types, err := os.ReadFile(filepath.Join(example, "api", "stable", "v1", "types.go"))
	if err != nil {
		t.Fatal(err)
	}
	withExtra := strings.Replace(string(types), "\tImage string `json:\"image\"`\n",
		"\tImage string `json:\"image\"`\n\t// Extra holds types of local packages.\n\t// +optional\n\tExtra Extra `json:\"extra,omitempty\"`\n", 1)
	if withExtra == string(types) {
		t.Fatal("examples/crd's CronTabSpec has no Image field to add Extra after")
	}
	write(t, filepath.Join(root, "api", "stable", "v1", "types.go"), withExtra)
	s.apply(t, root)
	return root
}

// kgenBinary builds cmd/kgen once for the test: the no-op record is keyed by the executable, as a user's is.
func kgenBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kgen")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/kgen")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building kgen: %v\n%s", err, out)
	}
	return bin
}

// diffArgs are examples/crd's go:generate line.
var diffArgs = []string{"generate", "--boilerplate", "hack/boilerplate.go.txt", "--output-dir", "./generated",
	"--output-pkg", "example.com/crd/generated", "--with-watch", "--with-applyconfig", "--crd-dir", "./config/crd", "./api"}

// runIn runs kgen in dir with cache as the user cache directory.
func runIn(t *testing.T, bin, dir, cache string, extra ...string) (ok bool, stderr string) {
	t.Helper()
	cmd := exec.Command(bin, append(append([]string(nil), diffArgs...), extra...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache, "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=readonly")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatal(err)
	}
	return err == nil, errOut.String()
}

// TestNoopRecordAgainstFreshRuns makes random edits to a copy of examples/crd with local dependency
// packages, linked files, a nested module and a replaced local module; after each, a kgen generate that
// may use its record of the last run must do what a --force run with an empty user cache does on a copy of
// the same tree: fail alike, and leave the same files. Between edits the record is brought up to date
// (rerun until it skips), so every edit meets a record. -noop.seed replays a run, -noop.steps makes more.
func TestNoopRecordAgainstFreshRuns(t *testing.T) {
	seed := *noopSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("-noop.seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	bin := kgenBinary(t)
	state := diffState{libGo: "1.26", linkedFields: [2]int{1, 1}, commonFields: 1, libFields: 1}
	root := diffModule(t, state)
	cache := t.TempDir()
	settleIn(t, bin, root, cache)

	edits := []struct {
		name string
		edit func()
	}{
		{"edit the API", func() { state.extraFields = (state.extraFields + 1) % 3 }},
		{"edit a local dependency", func() { state.commonFields = (state.commonFields + 1) % 3 }},
		{"edit a linked file of a local dependency", func() { state.noteFields = (state.noteFields + 1) % 3 }},
		{"edit the target of a linked API file", func() { state.linkedFields[state.linkTarget] = (state.linkedFields[state.linkTarget] + 1) % 3 }},
		{"edit the other target", func() { state.linkedFields[1-state.linkTarget] = (state.linkedFields[1-state.linkTarget] + 1) % 3 }},
		{"relink an API file", func() { state.linkTarget = 1 - state.linkTarget }},
		{"edit the replaced module's package", func() { state.libFields = (state.libFields + 1) % 3 }},
		{"toggle the replaced module's go version", func() { state.libGo = map[string]string{"1.26": "1.99", "1.99": "1.26"}[state.libGo] }},
		{"toggle the nested module's go.mod", func() { state.nested = !state.nested }},
		{"import another local package or stop", func() { state.morePkg = !state.morePkg }},
		{"toggle a go.mod above the local dependency", func() { state.depsModule = !state.depsModule }},
		{"rewrite an input unchanged", func() {
			path := filepath.Join(root, "api", "stable", "v1", "types.go")
			content, _ := os.ReadFile(path)
			write(t, path, string(content))
		}},
		{"hand-edit an output", func() {
			path := filepath.Join(root, "api", "stable", "v1", "zz_generated.deepcopy.go")
			if content, err := os.ReadFile(path); err == nil {
				write(t, path, string(content)+"// edited\n")
			}
		}},
		{"remove an output", func() { os.Remove(filepath.Join(root, "config", "crd", "stable.example.com_crontabs.yaml")) }},
	}
	byName := func(name string) int {
		for i, e := range edits {
			if e.name == name {
				return i
			}
		}
		panic(name)
	}
	for step := range *noopSteps {
		e := edits[rng.IntN(len(edits))]
		// A tree a fresh run fails on is mended as often as not, so most steps meet a record.
		if state.libGo != "1.26" && rng.IntN(2) == 0 {
			e = edits[byName("toggle the replaced module's go version")]
		} else if state.depsModule && rng.IntN(2) == 0 {
			e = edits[byName("toggle a go.mod above the local dependency")]
		}
		e.edit()
		state.apply(t, root)
		fresh := filepath.Join(t.TempDir(), "fresh")
		copyTree(t, root, fresh)

		cachedOK, cachedErr := runIn(t, bin, root, cache)
		freshOK, freshErr := runIn(t, bin, fresh, t.TempDir(), "--force")
		if cachedOK != freshOK {
			t.Fatalf("step %d (%s): the cached run succeeded: %v (%q), the fresh run: %v (%q)", step, e.name, cachedOK, cachedErr, freshOK, freshErr)
		}
		if diff := diffTrees(t, root, fresh); diff != "" {
			t.Fatalf("step %d (%s): the cached run (%q) left a tree unlike the fresh run's (%q): %s", step, e.name, cachedErr, freshErr, diff)
		}
		t.Logf("step %d: %s: ok=%v, cached run: %s", step, e.name, cachedOK, strings.TrimSpace(cachedErr))
		if cachedOK {
			settleIn(t, bin, root, cache)
		}
	}
}

// settleIn reruns kgen in dir until a rerun finds nothing changed (a run records nothing while an input
// is younger than the file system's time resolution).
func settleIn(t *testing.T, bin, dir, cache string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		ok, errOut := runIn(t, bin, dir, cache)
		if !ok {
			t.Fatalf("kgen generate in %s: %s", dir, errOut)
		}
		if strings.Contains(errOut, nothingChanged) {
			return
		}
	}
	t.Fatalf("kgen generate in %s never found nothing changed in 10s of reruns", dir)
}

// copyTree copies the files, directories and symbolic links under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		default:
			content, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, content, 0o644)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// diffTrees describes the first difference between the trees a and b (entries, link targets, content),
// or returns "".
func diffTrees(t *testing.T, a, b string) string {
	t.Helper()
	read := func(root string) map[string]string {
		entries := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			switch {
			case d.IsDir():
				entries[rel] = "dir"
			case d.Type()&fs.ModeSymlink != 0:
				link, err := os.Readlink(p)
				entries[rel] = "-> " + link
				return err
			default:
				content, err := os.ReadFile(p)
				entries[rel] = string(content)
				return err
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return entries
	}
	ea, eb := read(a), read(b)
	for name, content := range ea {
		other, ok := eb[name]
		switch {
		case !ok:
			return name + " is only in the cached run's tree"
		case other != content:
			return name + " differs"
		}
	}
	for name := range eb {
		if _, ok := ea[name]; !ok {
			return name + " is only in the fresh run's tree"
		}
	}
	return ""
}
