package workqueue

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestParallelizeUntilRunsEveryPieceOnce(t *testing.T) {
	for _, tc := range []struct{ workers, pieces, chunk int }{
		{1, 1, 1}, {4, 1000, 1}, {16, 1000, 7}, {3, 10, 100}, {0, 5, 0}, {8, 0, 1},
	} {
		counts := make([]atomic.Int32, tc.pieces)
		ParallelizeUntil(context.Background(), tc.workers, tc.pieces, func(p int) {
			counts[p].Add(1)
		}, WithChunkSize(tc.chunk))
		for p := range counts {
			if n := counts[p].Load(); n != 1 {
				t.Fatalf("%+v: piece %d ran %d times", tc, p, n)
			}
		}
	}
}

func TestParallelizeUntilStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	ParallelizeUntil(ctx, 2, 10_000, func(int) {
		if ran.Add(1) == 10 {
			cancel()
		}
	})
	if n := ran.Load(); n >= 10_000 || n < 10 {
		t.Fatalf("%d pieces ran after cancel at 10", n)
	}
}

func TestParallelizeUntilNilContext(t *testing.T) {
	var ran atomic.Int32
	//lint:ignore SA1012 a nil context is documented to mean "never cancel".
	ParallelizeUntil(nil, 2, 10, func(int) { ran.Add(1) })
	if ran.Load() != 10 {
		t.Fatalf("ran %d", ran.Load())
	}
}
