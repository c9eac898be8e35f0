package workqueue

// usageWindow decides when a buffer may shrink: after as many removals as it
// has slots, during which it never held more than a given fraction of them.
// Buffers filled and drained in bursts keep their size; quiet ones halve.
type usageWindow struct {
	peak     int // most entries held since the window began
	removals int // removals since the window began
}

// held records that the buffer now holds n entries.
func (w *usageWindow) held(n int) { w.peak = max(w.peak, n) }

// removed records a removal that left n entries in a buffer of size slots, and
// reports whether the buffer should halve: its window is over and it stayed
// under slots/fraction entries throughout.
func (w *usageWindow) removed(n, size, minSize, fraction int) bool {
	if w.removals++; w.removals < size {
		return false
	}
	shrink := size > minSize && w.peak < size/fraction
	w.removals, w.peak = 0, n
	return shrink
}
