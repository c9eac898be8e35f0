package leaderelection

import (
	"net/http"
	"sync"
	"time"
)

// HealthzAdaptor is a health check that fails when this candidate leads but has not renewed its lease
// for LeaseDuration plus a tolerance: a leader stuck that long should be restarted. Pass it as
// LeaderElectionConfig.WatchDog to RunOrDie, or call SetLeaderElection.
type HealthzAdaptor struct {
	mu        sync.Mutex
	le        *LeaderElector
	tolerance time.Duration
}

// NewLeaderHealthzAdaptor returns a health check tolerating timeout past an expired lease.
func NewLeaderHealthzAdaptor(timeout time.Duration) *HealthzAdaptor {
	return &HealthzAdaptor{tolerance: timeout}
}

// Name returns the check's name, "leaderElection".
func (h *HealthzAdaptor) Name() string { return "leaderElection" }

// Check reports an error when the elector leads on a lease it failed to renew in time; it passes
// before an elector is set.
func (h *HealthzAdaptor) Check(*http.Request) error {
	h.mu.Lock()
	le := h.le
	h.mu.Unlock()
	if le == nil {
		return nil
	}
	return le.Check(h.tolerance)
}

// SetLeaderElection sets the elector the check watches.
func (h *HealthzAdaptor) SetLeaderElection(le *LeaderElector) {
	h.mu.Lock()
	h.le = le
	h.mu.Unlock()
}
