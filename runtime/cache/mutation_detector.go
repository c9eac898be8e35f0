package cache

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// MutationDetectorEnvVar names the environment variable that turns on the cache mutation detector for
// every informer in the process when set to a true value ("true", "1", …).
const MutationDetectorEnvVar = "KGEN_CACHE_MUTATION_DETECTOR"

// MutationDetector watches objects handed out by a cache and reports when somebody modified one of them
// in place, which corrupts the cache for every other reader.
type MutationDetector interface {
	// AddObject remembers obj and a deep copy of it, to be compared for the retention window.
	AddObject(obj any)
	// Run compares remembered objects with their copies every period until stopCh is closed.
	Run(stopCh <-chan struct{})
}

// MutationDetectorOptions configures a detector made by NewMutationDetector. Zero fields take defaults.
type MutationDetectorOptions struct {
	// Period is how often cached objects are compared with their copies; default 1s.
	Period time.Duration
	// RetainDuration is how long an object stays under watch after it was added; default 2m.
	RetainDuration time.Duration
	// Clock drives retention; default the real clock.
	Clock clock.WithTicker
	// FailureFunc receives the report when a mutation is found. The default panics with the report,
	// deliberately: results computed from a corrupted cache cannot be trusted.
	FailureFunc func(report string)
}

// MutationDetectionEnabled reports whether KGEN_CACHE_MUTATION_DETECTOR asks for mutation detection.
func MutationDetectionEnabled() bool {
	on, _ := strconv.ParseBool(os.Getenv(MutationDetectorEnvVar))
	return on
}

// NewCacheMutationDetector returns a detector for the cache called name when KGEN_CACHE_MUTATION_DETECTOR
// is true, and a detector that does nothing otherwise.
func NewCacheMutationDetector(name string) MutationDetector {
	if !MutationDetectionEnabled() {
		return noMutationDetector{}
	}
	return NewMutationDetector(name, MutationDetectorOptions{})
}

// NewMutationDetector returns an active detector for the cache called name regardless of the environment.
// It keeps a deep copy of every added object for the retention window, so it costs memory: use it in
// tests and debugging, not in production.
func NewMutationDetector(name string, opts MutationDetectorOptions) MutationDetector {
	if opts.Period <= 0 {
		opts.Period = time.Second
	}
	if opts.RetainDuration <= 0 {
		opts.RetainDuration = 2 * time.Minute
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	if opts.FailureFunc == nil {
		opts.FailureFunc = func(report string) { panic(report) }
	}
	klog.Warningf("cache mutation detector enabled for %s: every cached object is copied, expect high memory use", name)
	return &mutationDetector{name: name, opts: opts}
}

type noMutationDetector struct{}

func (noMutationDetector) AddObject(any)              {}
func (noMutationDetector) Run(stopCh <-chan struct{}) {}

// mutationCandidate pairs an object as the cache holds it with the copy taken when it was added.
type mutationCandidate struct {
	cached runtime.Object
	copied runtime.Object
	added  time.Time
}

type mutationDetector struct {
	name string
	opts MutationDetectorOptions

	mu      sync.Mutex
	pending []mutationCandidate // added since the last comparison

	compareMu sync.Mutex
	watched   []mutationCandidate // owned by compare
}

// AddObject ignores values that are not runtime.Objects, such as tombstones of deleted objects.
func (d *mutationDetector) AddObject(obj any) {
	o, ok := obj.(runtime.Object)
	if !ok || o == nil {
		return
	}
	w := mutationCandidate{cached: o, copied: o.DeepCopyObject(), added: d.opts.Clock.Now()}
	d.mu.Lock()
	d.pending = append(d.pending, w)
	d.mu.Unlock()
}

func (d *mutationDetector) Run(stopCh <-chan struct{}) {
	ticker := d.opts.Clock.NewTicker(d.opts.Period)
	defer ticker.Stop()
	for {
		d.compare()
		select {
		case <-stopCh:
			d.compare()
			return
		case <-ticker.C():
		}
	}
}

// compare checks every watched object, forgets the ones past retention and reports all mutations at once.
func (d *mutationDetector) compare() {
	d.compareMu.Lock()
	defer d.compareMu.Unlock()

	d.mu.Lock()
	d.watched = append(d.watched, d.pending...)
	d.pending = nil
	d.mu.Unlock()

	cutoff := d.opts.Clock.Now().Add(-d.opts.RetainDuration)
	var report strings.Builder
	kept := d.watched[:0]
	for _, w := range d.watched {
		if !equality.Semantic.DeepEqual(w.cached, w.copied) {
			fmt.Fprintf(&report, "cached object %s (%T) was mutated (- when cached, + now):\n%s\n",
				mutationObjectKey(w.copied), w.copied, diff.Diff(w.copied, w.cached))
			continue // reported once; stop watching it
		}
		if w.added.After(cutoff) {
			kept = append(kept, w)
		}
	}
	clear(d.watched[len(kept):])
	d.watched = kept
	if report.Len() > 0 {
		d.opts.FailureFunc(fmt.Sprintf("cache %s modified by a consumer:\n%s", d.name, report.String()))
	}
}

// mutationObjectKey names an object as namespace/name, or by type when it carries no object metadata.
func mutationObjectKey(obj runtime.Object) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("<%T without metadata>", obj)
	}
	if m.GetNamespace() == "" {
		return m.GetName()
	}
	return m.GetNamespace() + "/" + m.GetName()
}
