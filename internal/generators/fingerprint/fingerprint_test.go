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
