package celcheck

import "testing"

// TestCompiledRulesAreRememberedAcrossRuns: a node that compiled in one run is known, with its rules'
// costs, to the next run of the same executable, and not to another executable.
func TestCompiledRulesAreRememberedAcrossRuns(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	first := NewRecord()
	if first.dir == "" {
		t.Fatal("no cache directory")
	}
	if _, ok := first.has("true/{}"); ok {
		t.Fatal("a fresh cache knows a node")
	}
	first.add("true/{}", []ruleCost{{Cost: 3, Cardinality: 7, MessageCost: 5}})
	if costs, ok := NewRecord().has("true/{}"); !ok || len(costs) != 1 || costs[0].Cost != 3 || costs[0].Cardinality != 7 || costs[0].MessageCost != 5 {
		t.Errorf("the next run knows %v, %v; want the node that compiled with its costs", costs, ok)
	}
	if _, ok := NewRecord().has("false/{}"); ok {
		t.Error("the next run knows a node that never compiled")
	}
	other := NewRecord()
	other.build = []byte("another executable")
	if _, ok := other.has("true/{}"); ok {
		t.Error("another executable trusts this one's result")
	}
}
