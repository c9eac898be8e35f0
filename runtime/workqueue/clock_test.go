package workqueue

import (
	"sync/atomic"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

// testingClock is a fake clock that counts calls to Now.
type testingClock struct {
	*testingclock.FakeClock
	nows atomic.Int64
}

func (c *testingClock) Now() time.Time {
	c.nows.Add(1)
	return c.FakeClock.Now()
}

func (c *testingClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }
