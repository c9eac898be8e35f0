package cache

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// MutationDetectorEnvVar names the environment variable that turns the cache mutation detector of
// every informer in the process on ("true", "1", …) or off ("false", "0", …). Unset, the detector
// runs in test binaries (testing.Testing()) except while they run benchmarks, in its lighter test
// form (see NewCacheMutationDetector), and nowhere else.
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

// testPeriod and testRetainDuration time the test form of the detector: it compares an object with
// its copy every two seconds for six seconds after caching it (and once more when the informer
// stops). Handlers and the reconciles they start modify objects within moments of receiving them,
// and comparing each object three times rather than 120 keeps test binaries about as fast as
// without.
const (
	testPeriod         = 2 * time.Second
	testRetainDuration = 6 * time.Second
)

// NewCacheMutationDetector returns the detector informers use unless given one:
//   - with KGEN_CACHE_MUTATION_DETECTOR true, an active detector (NewMutationDetector's defaults);
//     the informer then caches objects without sharing their equal parts, so a report names only
//     the objects actually modified;
//   - with it unset, in a test binary (testing.Testing()) that is not running benchmarks, a lighter
//     active detector that watches each object for six seconds after it was cached and leaves
//     sharing as configured, so tests run the cache as production does: a handler that modifies a
//     shared part makes the test binary fail with a report naming every object that changed and the
//     fields that did;
//   - otherwise (or with the variable false) a detector that does nothing.
func NewCacheMutationDetector(name string) MutationDetector {
	v, set := os.LookupEnv(MutationDetectorEnvVar)
	on, err := strconv.ParseBool(v)
	switch {
	case set && err == nil && on:
		return NewMutationDetector(name, MutationDetectorOptions{})
	case set && err == nil, !testing.Testing(), runningBenchmarks():
		return noMutationDetector{}
	}
	return &mutationDetector{name: name, keepsSharing: true, opts: MutationDetectorOptions{
		Period: testPeriod, RetainDuration: testRetainDuration, Clock: clock.RealClock{},
		FailureFunc: func(report string) { panic(report) },
	}}
}

// runningBenchmarks reports whether this test binary was asked to run benchmarks (-test.bench), whose
// figures a detector copying every cached object would distort.
func runningBenchmarks() bool {
	f := flag.Lookup("test.bench")
	return f != nil && f.Value.String() != ""
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
	name         string
	opts         MutationDetectorOptions
	keepsSharing bool // the test form: the informer shares equal parts of cached objects as configured

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
			fmt.Fprintf(&report, "cached object %s (%T) was mutated; changed fields: %s (- when cached, + now):\n%s\n",
				mutationObjectKey(w.copied), w.copied, strings.Join(changedFields(w.copied, w.cached), ", "), diff.Diff(w.copied, w.cached))
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

// maxChangedFields bounds the fields a mutation report lists per object.
const maxChangedFields = 10

// changedFields returns the paths of the fields that differ between was and now, in the objects'
// JSON names (metadata.labels[app], spec.containers[0].image), at most maxChangedFields of them.
func changedFields(was, now any) []string {
	var out []string
	collectChanged(reflect.ValueOf(was), reflect.ValueOf(now), "", &out)
	if len(out) == 0 {
		out = append(out, "(the object as a whole)")
	}
	return out
}

func collectChanged(a, b reflect.Value, path string, out *[]string) {
	if len(*out) >= maxChangedFields {
		return
	}
	if a.IsValid() && b.IsValid() && a.CanInterface() && b.CanInterface() && equality.Semantic.DeepEqual(a.Interface(), b.Interface()) {
		return
	}
	report := func() {
		if path == "" {
			path = "."
		}
		*out = append(*out, path)
	}
	if !a.IsValid() || !b.IsValid() || a.Type() != b.Type() {
		report()
		return
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			report()
			return
		}
		collectChanged(a.Elem(), b.Elem(), path, out)
	case reflect.Struct:
		before := len(*out)
		for i := range a.NumField() {
			f := a.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			name, inline := jsonName(f)
			sub := path
			if !inline {
				sub = joinPath(path, name)
			}
			collectChanged(a.Field(i), b.Field(i), sub, out)
		}
		if len(*out) == before {
			report() // the difference lies in unexported fields
		}
	case reflect.Map:
		keys := map[string]reflect.Value{}
		for _, k := range append(a.MapKeys(), b.MapKeys()...) {
			keys[fmt.Sprint(k.Interface())] = k
		}
		names := make([]string, 0, len(keys))
		for n := range keys {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			collectChanged(a.MapIndex(keys[n]), b.MapIndex(keys[n]), path+"["+n+"]", out)
		}
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			report()
			return
		}
		for i := range a.Len() {
			collectChanged(a.Index(i), b.Index(i), path+"["+strconv.Itoa(i)+"]", out)
		}
	default:
		report()
	}
}

// jsonName is a struct field's name in JSON, and whether its fields are inlined into the parent.
func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	name, opts, _ := strings.Cut(tag, ",")
	if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) {
		return "", true
	}
	if name == "" || name == "-" {
		return f.Name, false
	}
	return name, false
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
