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
