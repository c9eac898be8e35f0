package workqueue

// Views of unexported state that only tests read.

// tracked returns how many items have a failure record.
func (f *failures[T]) tracked() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.counts)
}

// len returns the number of waiting items.
func (h *delayHeap[T]) len() int { return len(h.live) }
