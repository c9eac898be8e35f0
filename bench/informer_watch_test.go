package bench

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// podUpdates encodes, for each of BenchmarkInformerMemory's Pods, the update a kubelet makes when a
// container restarts: a new resourceVersion, a restart count and a new start time.
func podUpdates() [][]byte {
	out := make([][]byte, memoryObjects)
	for i := range out {
		p := memoryPod(i)
		p.ResourceVersion = strconv.Itoa(2 + i)
		for j := range p.Status.ContainerStatuses {
			s := &p.Status.ContainerStatuses[j]
			s.RestartCount++
			if s.State.Running != nil {
				s.State.Running.StartedAt = metav1.NewTime(s.State.Running.StartedAt.Add(time.Hour))
			}
		}
		b, err := p.Marshal()
		if err != nil {
			panic(err)
		}
		out[i] = b
	}
	return out
}

// decodingWatch delivers encoded Pod updates once started, decoding each on its own goroutine as a
// client's watch decodes the stream, so the informer's work on one event overlaps the decoding of the
// next.
type decodingWatch struct {
	ch       chan watch.Event
	begin    chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

func newDecodingWatch(events [][]byte) *decodingWatch {
	w := &decodingWatch{ch: make(chan watch.Event), begin: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.ch)
		select {
		case <-w.begin:
		case <-w.done:
			return
		}
		for _, b := range events {
			p := &corev1.Pod{}
			if err := p.Unmarshal(b); err != nil {
				panic(err)
			}
			select {
			case w.ch <- watch.Event{Type: watch.Modified, Object: p}:
			case <-w.done:
				return
			}
		}
		<-w.done
	}()
	return w
}

func (w *decodingWatch) start()                         { close(w.begin) }
func (w *decodingWatch) Stop()                          { w.stopOnce.Do(func() { close(w.done) }) }
func (w *decodingWatch) ResultChan() <-chan watch.Event { return w.ch }

// watchInformer runs one side's informer over lw's Pods and then w (later watches see nothing), counting
// the updates its handler sees; it returns once the informer synced, with a function that stops it.
func watchInformer(side string, lw *encodedPages, w *decodingWatch, updates *atomic.Int64) (stop func()) {
	var once sync.Once
	watchFn := func(metav1.ListOptions) (watch.Interface, error) {
		var out watch.Interface = watch.NewFake()
		once.Do(func() { out = w })
		return out, nil
	}
	wait, stopInformer := sideInformer(side, lw.List, watchFn, &corev1.Pod{}, func() { updates.Add(1) })
	if !wait() {
		panic("informer did not sync")
	}
	return func() { stopInformer(); w.Stop() }
}

// BenchmarkInformerWatchDecoded syncs an informer over BenchmarkInformerMemory's 10,000 Pods, then
// measures 10,000 watch updates (one per Pod, a container restart), each decoded from protobuf on the
// watch's goroutine as a client's watch decodes it, until a handler has seen them all: update-ms, and
// the CPU time the process spent meanwhile (cpu-ms). kgen by default (each update walked against the
// cached version to share equal parts), without sharing, and client-go.
func BenchmarkInformerWatchDecoded(b *testing.B) {
	lw, updates := podPages(), podUpdates()
	for _, side := range []string{"kgen", "kgen-unshared", "client-go"} {
		b.Run(side, func(b *testing.B) {
			var took, cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				w := newDecodingWatch(updates)
				var seen atomic.Int64
				stop := watchInformer(side, lw, w, &seen)
				b.StartTimer()
				start, startCPU := time.Now(), processCPU()
				w.start()
				waitCount(&seen, int64(len(updates)))
				took += time.Since(start)
				cpu += processCPU() - startCPU
				b.StopTimer()
				stop()
				b.StartTimer()
			}
			n := float64(b.N)
			b.ReportMetric(float64(took.Milliseconds())/n, "update-ms")
			b.ReportMetric(float64(cpu.Milliseconds())/n, "cpu-ms")
		})
	}
}
