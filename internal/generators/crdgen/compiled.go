package crdgen

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/kgen-dev/kgen/internal/generators/fingerprint"
)

// compiledRules is the set of schema nodes whose CEL rules compiled without a problem, safe for concurrent
// use. It also remembers them across runs, as a build cache does: an empty file per node under the user
// cache directory, named by a hash of the node and of this executable's identity (the CEL libraries and
// checks built into it), so a rerun compiles only the rules of nodes that changed. Problems are never
// remembered, so a rule that does not compile is reported on every run.
type compiledRules struct {
	mu    sync.Mutex
	keys  map[string]bool
	dir   string // "" when nothing is remembered across runs
	build []byte
}

// rememberedFor is how long a remembered node is kept without being used.
const rememberedFor = 30 * 24 * time.Hour

func newCompiledRules() *compiledRules {
	c := &compiledRules{keys: map[string]bool{}}
	cache, err := os.UserCacheDir()
	if err != nil {
		return c
	}
	h := sha256.New()
	if fingerprint.WriteBuild(h) != nil {
		return c
	}
	c.dir, c.build = filepath.Join(cache, "kgen", "cel"), h.Sum(nil)
	c.trim()
	return c
}

// has reports whether the node with key compiled, in this run or, for the same executable, an earlier one.
func (c *compiledRules) has(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.keys[key] {
		return true
	}
	if c.dir == "" {
		return false
	}
	info, err := os.Stat(c.file(key))
	if err != nil {
		return false
	}
	if now := time.Now(); now.Sub(info.ModTime()) > 24*time.Hour {
		os.Chtimes(c.file(key), now, now) // in use: keep it
	}
	c.keys[key] = true
	return true
}

// add records that the node with key compiled.
func (c *compiledRules) add(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys[key] = true
	if c.dir == "" {
		return
	}
	if os.MkdirAll(c.dir, 0o755) == nil {
		if f, err := os.Create(c.file(key)); err == nil {
			f.Close()
		}
	}
}

func (c *compiledRules) file(key string) string {
	h := sha256.New()
	h.Write(c.build)
	h.Write([]byte(key))
	return filepath.Join(c.dir, hex.EncodeToString(h.Sum(nil))[:32])
}

// trim removes the remembered nodes unused for rememberedFor, at most once a day.
func (c *compiledRules) trim() {
	stamp := filepath.Join(c.dir, ".trimmed")
	if info, err := os.Stat(stamp); err == nil && time.Since(info.ModTime()) < 24*time.Hour {
		return
	}
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-rememberedFor)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && e.Name() != ".trimmed" && info.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(c.dir, e.Name()))
		}
	}
	if f, err := os.Create(stamp); err == nil {
		f.Close()
	}
}
