package crdgen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/kgen-dev/kgen/internal/generators/fingerprint"
)

// compiledRules holds the schema nodes whose CEL rules compiled without a problem, with the rules' costs,
// safe for concurrent use. It also remembers them across runs, as a build cache does: a file per node
// under the user cache directory holding the costs, named by a hash of the node and of this executable's
// identity (the CEL libraries and checks built into it), so a rerun compiles only the rules of nodes that
// changed. Compile errors are never remembered, so a rule that does not compile is reported on every
// run; costs are checked against the limits on every run.
type compiledRules struct {
	mu    sync.Mutex
	keys  map[string][]ruleCost
	dir   string // "" when nothing is remembered across runs
	build []byte
}

// rememberedFor is how long a remembered node is kept without being used.
const rememberedFor = 30 * 24 * time.Hour

func newCompiledRules() *compiledRules {
	c := &compiledRules{keys: map[string][]ruleCost{}}
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

// has returns the costs of the rules of the node with key if they compiled, in this run or, for the same
// executable, an earlier one.
func (c *compiledRules) has(key string) ([]ruleCost, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if costs, ok := c.keys[key]; ok {
		return costs, true
	}
	if c.dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(c.file(key))
	var costs []ruleCost
	if err != nil || json.Unmarshal(data, &costs) != nil {
		return nil, false
	}
	if info, err := os.Stat(c.file(key)); err == nil && time.Since(info.ModTime()) > 24*time.Hour {
		now := time.Now()
		os.Chtimes(c.file(key), now, now) // in use: keep it
	}
	c.keys[key] = costs
	return costs, true
}

// add records that the rules of the node with key compiled, and their costs.
func (c *compiledRules) add(key string, costs []ruleCost) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys[key] = costs
	if c.dir == "" {
		return
	}
	data, err := json.Marshal(costs)
	if err != nil || os.MkdirAll(c.dir, 0o755) != nil {
		return
	}
	// Written whole under a temporary name, so a concurrent run never reads half a file.
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil && cerr == nil {
		err = os.Rename(tmp.Name(), c.file(key))
	}
	if err != nil {
		os.Remove(tmp.Name())
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
