package workqueue

import (
	"testing"
	"time"
)

// TestPauseLengthsFollowTheMeasuredSpeed checks that the pauses are lengths
// of time converted with the fastest timing of the spin loop.
func TestPauseLengthsFollowTheMeasuredSpeed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timings []time.Duration
		want    spinLengths
	}{
		// 1ns per iteration, once with a preemption in the middle of a timing.
		{"1ns per iteration", []time.Duration{time.Millisecond, calibrationIterations, 2 * calibrationIterations}, spinLengths{first: 2800, max: 20000}},
		// A core twice as fast spins twice as many iterations for the same pause.
		{"0.5ns per iteration", []time.Duration{calibrationIterations / 2}, spinLengths{first: 5600, max: 40000}},
		{"clock without resolution", []time.Duration{0}, spinLengths{first: 16, max: 128}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := 0
			got := pauseLengths(func() time.Duration {
				d := tc.timings[min(i, len(tc.timings)-1)]
				i++
				return d
			})
			if got != tc.want {
				t.Errorf("pauseLengths = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestPausesAreMeasuredOnThisCPU checks the real calibration gives pauses of
// plausible lengths: the first shorter than the longest, neither at the
// fallback floor on a CPU with a working clock.
func TestPausesAreMeasuredOnThisCPU(t *testing.T) {
	p := pauses()
	if p.first <= 16 || p.max <= p.first {
		t.Errorf("pauses = %+v, want first above the floor and max above first", p)
	}
}
