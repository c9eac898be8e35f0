package workqueue

import "testing"

// TestRingKeepsItsBufferAcrossBurstsAndShrinksWhenQuiet fills and drains a
// ring twice, as an informer's relists do, then trickles one item at a time.
func TestRingKeepsItsBufferAcrossBurstsAndShrinksWhenQuiet(t *testing.T) {
	var r ring
	burst := func() {
		for i := range 4096 {
			r.push(entry{record: uint32(i), seq: uint64(i)})
		}
		for i := range 4096 {
			if e := r.pop(); e.record != uint32(i) {
				t.Fatalf("pop = %d, want %d", e.record, i)
			}
		}
	}
	burst()
	size := len(r.buf)
	burst()
	if len(r.buf) != size {
		t.Fatalf("second burst resized the ring from %d to %d slots", size, len(r.buf))
	}
	for i := range 4 * size {
		r.push(entry{record: uint32(i)})
		if e := r.pop(); e.record != uint32(i) {
			t.Fatalf("trickle pop = %d, want %d", e.record, i)
		}
	}
	if len(r.buf) != minRingSize {
		t.Fatalf("after a quiet trickle the ring has %d slots, want %d", len(r.buf), minRingSize)
	}
}

// TestLevelsPeekShowsTheNextPop checks that peek returns the entry pop returns
// next, highest priority first, and the zero entry once every FIFO is empty.
func TestLevelsPeekShowsTheNextPop(t *testing.T) {
	var ls levels
	if e := ls.peek(); e != (entry{}) {
		t.Fatalf("peek of no levels = %+v, want the zero entry", e)
	}
	for seq, p := range []int{0, 5, 0, -1, 5} {
		ls.fifo(p, uint64(seq)).push(entry{seq: uint64(seq + 1), record: uint32(seq), hash: uint32(p + 10)})
	}
	for range 5 {
		next := ls.peek()
		if e := ls.pop(); e != next {
			t.Fatalf("peek = %+v, then pop = %+v", next, e)
		}
	}
	if e := ls.peek(); e != (entry{}) {
		t.Fatalf("peek of empty levels = %+v, want the zero entry", e)
	}
}
