package celcheck

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/kgen-dev/kgen/internal/generators/fingerprint"
	"github.com/kgen-dev/kgen/internal/generators/usercache"
)

// Record holds the schema nodes whose CEL rules compiled without a problem, with the rules' costs,
// safe for concurrent use. It also remembers them across runs, as a build cache does: a record per node
// under the user cache directory holding the costs, named by a hash of the node and of this executable's
// identity (the CEL libraries and checks built into it), so a rerun compiles only the rules of nodes that
// changed. Compile errors are never remembered, so a rule that does not compile is reported on every
// run; costs are checked against the limits on every run.
type Record struct {
	mu    sync.Mutex
	keys  map[string][]ruleCost
	dir   string // "" when nothing is remembered across runs
	build []byte
	// prints keys the nodes (see Compile).
	prints *fingerprints
}

// NewRecord returns an empty record, remembering across runs under the user cache directory when
// there is one.
func NewRecord() *Record {
	c := &Record{keys: map[string][]ruleCost{}, prints: newFingerprints()}
	dir, err := usercache.Dir("cel")
	if err != nil {
		return c
	}
	h := sha256.New()
	if fingerprint.WriteBuild(h) != nil {
		return c
	}
	c.dir, c.build = dir, h.Sum(nil)
	return c
}

// has returns the costs of the rules of the node with key if they compiled, in this run or, for the same
// executable, an earlier one.
func (c *Record) has(key string) ([]ruleCost, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if costs, ok := c.keys[key]; ok {
		return costs, true
	}
	if c.dir == "" {
		return nil, false
	}
	data, err := usercache.Read(c.dir, c.name(key))
	var costs []ruleCost
	if err != nil || json.Unmarshal(data, &costs) != nil {
		return nil, false
	}
	c.keys[key] = costs
	return costs, true
}

// add records that the rules of the node with key compiled, and their costs.
func (c *Record) add(key string, costs []ruleCost) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys[key] = costs
	if c.dir == "" {
		return
	}
	if data, err := json.Marshal(costs); err == nil {
		usercache.Write(c.dir, c.name(key), data)
	}
}

// name is the record name of the node with key.
func (c *Record) name(key string) string {
	h := sha256.New()
	h.Write(c.build)
	h.Write([]byte(key))
	return hex.EncodeToString(h.Sum(nil))[:32]
}
