package workqueue

import (
	"context"
	"sync"
	"sync/atomic"
)

// DoWorkPieceFunc processes piece number piece.
type DoWorkPieceFunc func(piece int)

// Options configures ParallelizeUntil.
type Options func(*options)

type options struct {
	chunkSize int
}

// WithChunkSize makes each worker claim c consecutive pieces at a time, which
// pays off when pieces are tiny.
func WithChunkSize(c int) Options {
	return func(o *options) { o.chunkSize = c }
}

// ParallelizeUntil calls doWorkPiece for every piece in [0, pieces) from up to
// workers goroutines, and returns when all are done or ctx is cancelled (pieces
// not yet started are then skipped). A nil ctx never cancels.
func ParallelizeUntil(ctx context.Context, workers, pieces int, doWorkPiece DoWorkPieceFunc, opts ...Options) {
	if pieces <= 0 {
		return
	}
	o := options{chunkSize: 1}
	for _, opt := range opts {
		opt(&o)
	}
	chunk := max(o.chunkSize, 1)
	chunks := (pieces + chunk - 1) / chunk
	workers = min(max(workers, 1), chunks)
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	var next atomic.Int64 // next chunk to claim
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				for p := c * chunk; p < min((c+1)*chunk, pieces); p++ {
					select {
					case <-done:
						return
					default:
						doWorkPiece(p)
					}
				}
			}
		})
	}
	wg.Wait()
}
