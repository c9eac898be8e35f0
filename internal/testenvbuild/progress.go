package testenvbuild

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// heartbeat is how often a running phase says it is still running.
const heartbeat = time.Minute

// progress reports a build's numbered phases to a log: a line when one starts, a line every heartbeat
// while it runs, and its elapsed time when it ends.
type progress struct {
	log   io.Writer
	total int
	now   func() time.Time
	// ticker returns the channel of a phase's heartbeats and the function that stops them.
	ticker func() (<-chan time.Time, func())
	start  time.Time

	mu sync.Mutex // serialises lines from a phase and its heartbeats
	n  int        // the number of the phase running or last run
}

func newProgress(log io.Writer, total int) *progress {
	p := &progress{log: log, total: total, now: time.Now, ticker: func() (<-chan time.Time, func()) {
		t := time.NewTicker(heartbeat)
		return t.C, t.Stop
	}}
	p.start = p.now()
	return p
}

func (p *progress) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.log, format+"\n", args...)
}

// elapsed is the time since t, to the second.
func (p *progress) elapsed(t time.Time) time.Duration { return p.now().Sub(t).Round(time.Second) }

// phase runs the next phase, called what, and reports it; run returns a short note for the closing line
// (such as what it downloaded) and its error.
func (p *progress) phase(what string, run func() (string, error)) error {
	p.n++
	label := fmt.Sprintf("testenv: [%d/%d] %s", p.n, p.total, what)
	p.printf("%s ...", label)
	start := p.now()
	ticks, stop := p.ticker()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case t := <-ticks:
				p.printf("%s: still running (%s)", label, t.Sub(start).Round(time.Second))
			}
		}
	})
	note, err := run()
	close(done)
	stop()
	wg.Wait()
	switch {
	case err != nil:
		p.printf("%s: failed after %s", label, p.elapsed(start))
	case note != "":
		p.printf("%s: done in %s (%s)", label, p.elapsed(start), note)
	default:
		p.printf("%s: done in %s", label, p.elapsed(start))
	}
	return err
}
