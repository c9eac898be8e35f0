package crdgen

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCompiledRulesAreRememberedAcrossRuns: a node that compiled in one run is known to the next run of the
// same executable, not to another executable, and nodes unused for rememberedFor are trimmed.
func TestCompiledRulesAreRememberedAcrossRuns(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	first := newCompiledRules()
	if first.dir == "" {
		t.Fatal("no cache directory")
	}
	if first.has("true/{}") {
		t.Fatal("a fresh cache knows a node")
	}
	first.add("true/{}")
	if !newCompiledRules().has("true/{}") {
		t.Error("the next run does not know the node that compiled")
	}
	if newCompiledRules().has("false/{}") {
		t.Error("the next run knows a node that never compiled")
	}
	other := newCompiledRules()
	other.build = []byte("another executable")
	if other.has("true/{}") {
		t.Error("another executable trusts this one's result")
	}

	old := time.Now().Add(-rememberedFor - time.Hour)
	os.Chtimes(first.file("true/{}"), old, old)
	os.Remove(filepath.Join(first.dir, ".trimmed"))
	if newCompiledRules().has("true/{}") {
		t.Error("a node unused for longer than rememberedFor was kept")
	}
}
