package webhook_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind: servers
// that are shut down must stop everything they started.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
