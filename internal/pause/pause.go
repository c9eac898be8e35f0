// Package pause waits for a while unless a context ends first, on an injectable clock.
package pause

import (
	"context"
	"time"

	"k8s.io/utils/clock"
)

// For waits d on c; it reports false, at once, if ctx ends first. A d of zero or less returns
// at once, reporting whether ctx is still live.
func For(ctx context.Context, c clock.Clock, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}
