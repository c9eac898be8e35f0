package cache

import (
	"testing"

	"go.uber.org/goleak"
)

// checkLeaks fails t if goroutines started during the test outlive it.
func checkLeaks(t *testing.T) {
	t.Helper()
	existing := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, existing) })
}
