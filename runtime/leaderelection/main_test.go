package leaderelection_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind: every Run has returned and every
// OnNewLeader call has finished by the end of its test.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
