package applyconfigurationgen

import "testing"

// TestLowerFirst checks Extract parameter names against code-generator's: only the first letter is
// lowered, a leading acronym included.
func TestLowerFirst(t *testing.T) {
	for name, want := range map[string]string{
		"APIService": "aPIService", "CSIDriver": "cSIDriver", "IPAddress": "iPAddress", "Pod": "pod", "URLMap": "uRLMap", "": "",
	} {
		if got := lowerFirst(name); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", name, got, want)
		}
	}
}
