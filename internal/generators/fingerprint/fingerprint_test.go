package fingerprint

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kgen-dev/kgen/internal/generators/usercache"
)

// setup returns a fingerprint whose run started an hour from now, so the files the test wrote count as
// settled, over an input tree holding one file.
func setup(t *testing.T) (*Fingerprint, string) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a.go"), "package a\n")
	f, err := New("test")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Begin(Sources{Trees: []string{root}, SkipPackages: true}); err != nil {
		t.Fatal(err)
	}
	f.start = time.Now().Add(time.Hour)
	f.snapTime = f.start
	return f, root
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRunOwnWritesAreNotInputChanges(t *testing.T) {
	f, root := setup(t)
	out := filepath.Join(root, "zz_generated.go")
	writeFile(t, out, "package a\n")
	if !f.Save(1, Sources{}, Sources{Files: []string{out}}, []string{out}) {
		t.Fatal("Save refused a run that only wrote its own output")
	}
	if files, ok := f.Unchanged(); !ok || files != 1 {
		t.Fatalf("Unchanged = %d, %v right after Save", files, ok)
	}
	// A rewritten output is caught.
	writeFile(t, out, "package b\n")
	if _, ok := f.Unchanged(); ok {
		t.Fatal("Unchanged after the output was rewritten")
	}
}

func TestSaveRefusesAnInputChangedDuringTheRun(t *testing.T) {
	for name, change := range map[string]func(root string){
		"edited":  func(root string) { writeFile(t, filepath.Join(root, "a.go"), "package a // edited\n") },
		"added":   func(root string) { writeFile(t, filepath.Join(root, "b.go"), "package a\n") },
		"removed": func(root string) { os.Remove(filepath.Join(root, "a.go")) },
	} {
		t.Run(name, func(t *testing.T) {
			f, root := setup(t)
			change(root)
			if f.Save(0, Sources{}, Sources{}, nil) {
				t.Fatal("Save recorded a run whose input changed while it ran")
			}
			if _, ok := f.Unchanged(); ok {
				t.Fatal("Unchanged without a record")
			}
		})
	}
}

func TestDiscard(t *testing.T) {
	f, _ := setup(t)
	if !f.Save(0, Sources{}, Sources{}, nil) {
		t.Fatal("Save refused an unchanged run")
	}
	f.Discard()
	if _, ok := f.Unchanged(); ok {
		t.Fatal("Unchanged after Discard")
	}
}

func TestSaveTrimsOldRecords(t *testing.T) {
	f, _ := setup(t)
	old := filepath.Join(filepath.Dir(f.file), "0123456789abcdef0123456789abcdef")
	os.MkdirAll(filepath.Dir(old), 0o755)
	writeFile(t, old, "a record of another build")
	past := time.Now().Add(-usercache.Lifetime - time.Hour)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	if !f.Save(0, Sources{}, Sources{}, nil) {
		t.Fatal("Save refused an unchanged run")
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("a record older than %v was kept: %v", usercache.Lifetime, err)
	}
	if _, err := os.Stat(f.file); err != nil {
		t.Errorf("the new record: %v", err)
	}
}

func TestUnchangedFollowsSymbolicLinks(t *testing.T) {
	f, _ := setup(t)
	target := filepath.Join(t.TempDir(), "target")
	writeFile(t, target, "package a\n")
	link := filepath.Join(t.TempDir(), "link.go")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if !f.Save(0, Sources{Files: []string{link}}, Sources{}, nil) {
		t.Fatal("Save refused an unchanged run")
	}
	if _, ok := f.Unchanged(); !ok {
		t.Fatal("Unchanged = false right after Save")
	}
	writeFile(t, target, "package a // edited\n")
	if _, ok := f.Unchanged(); ok {
		t.Fatal("Unchanged after the link's target was edited")
	}
}

func TestNestedModuleBoundIsRecorded(t *testing.T) {
	f, root := setup(t)
	nested := filepath.Join(root, "nested")
	os.Mkdir(nested, 0o755)
	writeFile(t, filepath.Join(nested, "go.mod"), "module example.com/nested\n")
	writeFile(t, filepath.Join(nested, "n.go"), "package nested\n")
	// The nested module appeared after Begin: record afresh.
	if err := f.Begin(Sources{Trees: []string{root}, SkipPackages: true}); err != nil {
		t.Fatal(err)
	}
	f.snapTime = f.start
	if !f.Save(0, Sources{}, Sources{}, nil) {
		t.Fatal("Save refused an unchanged run")
	}
	// Editing a file of the nested module changes nothing the run reads; removing its go.mod does.
	writeFile(t, filepath.Join(nested, "n.go"), "package nested // edited\n")
	if _, ok := f.Unchanged(); !ok {
		t.Fatal("Unchanged = false after an edit inside a nested module")
	}
	os.Remove(filepath.Join(nested, "go.mod"))
	if _, ok := f.Unchanged(); ok {
		t.Fatal("Unchanged after the nested module's go.mod was removed")
	}
}

func TestALinkedTreeIsNotRecorded(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	link := filepath.Join(t.TempDir(), "tree")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	f, err := New("test")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Begin(Sources{Trees: []string{link}, SkipPackages: true}); err == nil {
		t.Fatal("Begin recorded a tree whose root is a link")
	}
}

func TestGOFLAGSNamingFilesRecordsNothing(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("GOFLAGS", "-overlay="+filepath.Join(t.TempDir(), "overlay.json"))
	if _, err := New("test"); err == nil {
		t.Fatal("New made a record for a build with an overlay")
	}
}

func TestGODEBUGIsPartOfTheKey(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	a, err := New("test")
	if err != nil {
		t.Fatal(err)
	}
	// Go 1.27 stops at once on gotypesalias=0 (a removed old value); the current value is a setting all the same.
	t.Setenv("GODEBUG", "gotypesalias=1")
	b, err := New("test")
	if err != nil {
		t.Fatal(err)
	}
	if a.file == b.file {
		t.Fatal("a GODEBUG setting did not change the record's key")
	}
}

func TestAbsentPathsMustStayAbsent(t *testing.T) {
	f, _ := setup(t)
	elsewhere := t.TempDir() // outside the input tree, whose every change counts
	gomod := filepath.Join(elsewhere, "sub", "go.mod")
	if !f.Save(0, Sources{Absent: []string{gomod}}, Sources{}, nil) {
		t.Fatal("Save refused an unchanged run")
	}
	os.Mkdir(filepath.Join(elsewhere, "sub"), 0o755)
	if _, ok := f.Unchanged(); !ok {
		t.Fatal("Unchanged = false while the absent path is still absent")
	}
	writeFile(t, gomod, "module example.com/sub\n")
	if _, ok := f.Unchanged(); ok {
		t.Fatal("Unchanged after an absent path was created")
	}
	if f.Save(0, Sources{Absent: []string{gomod}}, Sources{}, nil) {
		t.Fatal("Save recorded a path as absent that exists")
	}
}
