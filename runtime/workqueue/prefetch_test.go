package workqueue

import (
	"testing"
	"unsafe"
)

// TestPrefetchIsOnlyAHint checks that prefetch neither changes memory nor
// faults, even on an address that is not mapped.
func TestPrefetchIsOnlyAHint(t *testing.T) {
	x := uint64(42)
	prefetch(unsafe.Pointer(&x))
	prefetch(nil)
	if x != 42 {
		t.Fatalf("prefetch changed the value at its address to %d", x)
	}
}
