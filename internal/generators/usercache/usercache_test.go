package usercache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWriteReadTrim: a record reads back as written; a write removes records unused for Lifetime, but
// only once a day, and a read keeps a record alive.
func TestWriteReadTrim(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir, err := Dir("test")
	if err != nil || filepath.Base(filepath.Dir(dir)) != "kgen" {
		t.Fatalf("Dir = %s, %v", dir, err)
	}
	if err := Write(dir, "a", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(dir, "a"); err != nil || string(data) != "one" {
		t.Fatalf("Read = %q, %v", data, err)
	}
	old := time.Now().Add(-Lifetime - time.Hour)
	for _, name := range []string{"a", "b"} {
		os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644)
		os.Chtimes(filepath.Join(dir, name), old, old)
	}
	if _, err := Read(dir, "a"); err != nil { // used: kept
		t.Fatal(err)
	}
	dayAgo := time.Now().Add(-25 * time.Hour)
	os.Chtimes(filepath.Join(dir, trimStamp), dayAgo, dayAgo)
	if err := Write(dir, "c", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); err == nil {
		t.Error("b, unused for longer than Lifetime, was kept: the first write of a day trims")
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); err != nil {
		t.Errorf("a, read just before, was removed: %v", err)
	}

	os.WriteFile(filepath.Join(dir, "d"), nil, 0o644)
	os.Chtimes(filepath.Join(dir, "d"), old, old)
	if err := Write(dir, "e", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "d")); err != nil {
		t.Error("a second write the same day trimmed again")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("left behind %s", e.Name())
		}
	}
}
