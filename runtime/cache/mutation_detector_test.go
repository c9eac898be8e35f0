package cache

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	clocktesting "k8s.io/utils/clock/testing"
)

// failureRecorder collects detector reports instead of letting the detector panic.
type failureRecorder struct {
	mu      sync.Mutex
	reports []string
}

func (f *failureRecorder) fail(report string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reports = append(f.reports, report)
}

func (f *failureRecorder) get() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.reports...)
}

func mutationTestPod(name string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "c",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse("100m"),
			}},
		}}},
	}
}

// runOnce runs the detector until its first comparison after the objects were added and stops it.
func runOnce(d MutationDetector) {
	stop := make(chan struct{})
	close(stop)
	d.Run(stop)
}

func TestMutationDetectorCatchesMutatingHandler(t *testing.T) {
	var failures failureRecorder
	d := NewMutationDetector("pods", MutationDetectorOptions{FailureFunc: failures.fail})
	good, bad := mutationTestPod("good"), mutationTestPod("bad")
	d.AddObject(good)
	d.AddObject(bad)

	// A handler that "fixes" the cached object in place instead of working on a copy.
	bad.Labels["app"] = "mutated"

	runOnce(d)
	reports := failures.get()
	if len(reports) != 1 {
		t.Fatalf("want exactly one report, got %d: %q", len(reports), reports)
	}
	for _, want := range []string{"cache pods modified", "ns/bad", `"app": "web"`, `"app": "mutated"`} {
		if !strings.Contains(reports[0], want) {
			t.Errorf("report lacks %q:\n%s", want, reports[0])
		}
	}
	if strings.Contains(reports[0], "ns/good") {
		t.Errorf("report names the untouched object:\n%s", reports[0])
	}
}

func TestMutationDetectorSilentForWellBehavedHandler(t *testing.T) {
	var failures failureRecorder
	d := NewMutationDetector("pods", MutationDetectorOptions{FailureFunc: failures.fail})
	pod := mutationTestPod("p")
	d.AddObject(pod)

	// A well-behaved handler reads the cached object and mutates only its own deep copy.
	q := pod.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU]
	_ = q.String()
	own := pod.DeepCopy()
	own.Labels["app"] = "changed"

	runOnce(d)
	if r := failures.get(); len(r) != 0 {
		t.Fatalf("unexpected reports: %q", r)
	}
}

func TestMutationDetectorDefaultFailurePanicsWithKeyAndDiff(t *testing.T) {
	d := NewMutationDetector("pods", MutationDetectorOptions{})
	pod := mutationTestPod("p")
	d.AddObject(pod)
	pod.Spec.Containers[0].Name = "renamed"

	defer func() {
		r := recover()
		msg, _ := r.(string)
		if !strings.Contains(msg, "ns/p") || !strings.Contains(msg, "renamed") {
			t.Fatalf("want a panic naming the key and the diff, got %v", r)
		}
	}()
	runOnce(d)
	t.Fatal("mutation did not panic")
}

func TestMutationDetectorForgetsObjectsAfterRetention(t *testing.T) {
	var failures failureRecorder
	clk := clocktesting.NewFakeClock(time.Now())
	d := NewMutationDetector("pods", MutationDetectorOptions{
		FailureFunc: failures.fail, Clock: clk, RetainDuration: time.Minute,
	}).(*mutationDetector)
	pod := mutationTestPod("p")
	d.AddObject(pod)
	d.compare()
	clk.Step(2 * time.Minute)
	d.compare()
	if len(d.watched) != 0 {
		t.Fatalf("object still watched after retention: %d", len(d.watched))
	}
	pod.Labels["app"] = "late"
	d.compare()
	if r := failures.get(); len(r) != 0 {
		t.Fatalf("mutation after retention reported: %q", r)
	}
}

func TestMutationDetectorIgnoresNonObjects(t *testing.T) {
	var failures failureRecorder
	d := NewMutationDetector("pods", MutationDetectorOptions{FailureFunc: failures.fail})
	d.AddObject("not an object")
	d.AddObject(nil)
	runOnce(d)
	if r := failures.get(); len(r) != 0 {
		t.Fatalf("unexpected reports: %q", r)
	}
}

func TestMutationDetectorRunsPeriodically(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var failures failureRecorder
	d := NewMutationDetector("pods", MutationDetectorOptions{FailureFunc: failures.fail, Period: 10 * time.Millisecond})
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Run(stop)
	}()
	pod := mutationTestPod("p")
	d.AddObject(pod)
	// Give the detector time to take the object under watch before the handler misbehaves.
	deadline := time.Now().Add(10 * time.Second)
	for {
		md := d.(*mutationDetector)
		md.compareMu.Lock()
		n := len(md.watched)
		md.compareMu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("object never taken under watch")
		}
		time.Sleep(time.Millisecond)
	}
	d.(*mutationDetector).compareMu.Lock()
	pod.Labels["app"] = "mutated"
	d.(*mutationDetector).compareMu.Unlock()
	for len(failures.get()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("periodic comparison never reported the mutation")
		}
		time.Sleep(time.Millisecond)
	}
	close(stop)
	<-done
}

func TestNewCacheMutationDetectorFollowsEnvironment(t *testing.T) {
	t.Setenv(MutationDetectorEnvVar, "")
	d, ok := NewCacheMutationDetector("test").(*mutationDetector)
	if !ok || !d.keepsSharing || d.opts.RetainDuration != testRetainDuration {
		t.Fatalf("under go test without the environment variable: %#v, want the test form", d)
	}
	t.Setenv(MutationDetectorEnvVar, "false")
	if _, ok := NewCacheMutationDetector("off").(noMutationDetector); !ok {
		t.Fatal("detector active with KGEN_CACHE_MUTATION_DETECTOR=false")
	}
	t.Setenv(MutationDetectorEnvVar, "true")
	if d, ok := NewCacheMutationDetector("on").(*mutationDetector); !ok || d.keepsSharing {
		t.Fatal("KGEN_CACHE_MUTATION_DETECTOR=true did not give the full detector")
	}
	// The no-op detector must be safe to use.
	off := noMutationDetector{}
	off.AddObject(mutationTestPod("p"))
	runOnce(off)
}

// TestDefaultDetectorCatchesHandlerMutatingASharedPart: an informer of a test binary runs the
// detector by default with sharing on, so a handler that modifies a part two cached objects share
// is reported for both, with the object and the field.
func TestDefaultDetectorCatchesHandlerMutatingASharedPart(t *testing.T) {
	checkLeaks(t)
	t.Setenv(MutationDetectorEnvVar, "")
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "same")
	src.apply(watch.Added, "ns", "b", "same")
	informer := newTestInformer(src, 0).(*sharedIndexInformer)
	d, ok := informer.mutationDetector.(*mutationDetector)
	if !ok || informer.detectorForbidsSharing() {
		t.Fatalf("default detector %T, forbids sharing %v; want the test form with sharing on", informer.mutationDetector, informer.detectorForbidsSharing())
	}
	var failures failureRecorder
	d.opts.FailureFunc = failures.fail
	d.opts.Clock = clocktesting.NewFakeClock(time.Now()) // compare only when asked
	mutated := make(chan struct{})
	_, _ = informer.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		if cm := obj.(*corev1.ConfigMap); cm.Name == "b" {
			cm.Labels["data"] = "mutated" // the bug: modifying the cached object
			close(mutated)
		}
	}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); informer.RunWithContext(ctx) }()
	<-mutated
	cancel()
	<-done // Run compares a last time when it stops
	reports := failures.get()
	if len(reports) != 1 {
		t.Fatalf("want one report, got %q", reports)
	}
	for _, want := range []string{"ns/a", "ns/b", "changed fields: metadata.labels[data]", `"mutated"`} {
		if !strings.Contains(reports[0], want) {
			t.Errorf("report lacks %q:\n%s", want, reports[0])
		}
	}
}

func TestChangedFieldsNamesPaths(t *testing.T) {
	was := mutationTestPod("p")
	now := was.DeepCopy()
	now.Spec.Containers[0].Image = "nginx"
	now.Labels["app"] = "db"
	now.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("0.1") // the same quantity
	got := strings.Join(changedFields(was, now), " ")
	if got != "metadata.labels[app] spec.containers[0].image" {
		t.Fatalf("changed fields %q", got)
	}
}

func TestInformerMutationDetectorCatchesMutatingHandler(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "good-listed", "0")
	src.apply(watch.Added, "ns", "bad-listed", "0")

	clk := clocktesting.NewFakeClock(time.Now())
	var failures failureRecorder
	informer := NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{
		Backoff:          fastBackoff,
		MutationDetector: NewMutationDetector("configmaps", MutationDetectorOptions{Clock: clk, FailureFunc: failures.fail}),
	})
	added := make(chan string, 10)
	// A handler that edits cached objects in place instead of working on copies.
	_, err := informer.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		cm := obj.(*corev1.ConfigMap)
		if strings.HasPrefix(cm.Name, "bad-") {
			cm.Data["v"] = "edited by a handler"
		}
		added <- cm.Name
	}})
	if err != nil {
		t.Fatal(err)
	}
	startInformer(t, informer)
	for range 2 {
		<-added // the listed objects
	}
	src.apply(watch.Added, "ns", "bad-watched", "0")
	src.apply(watch.Added, "ns", "good-watched", "0")
	for range 2 {
		<-added
	}

	eventually(t, "mutation reports", func() bool {
		clk.Step(time.Second)
		report := strings.Join(failures.get(), "\n")
		return strings.Contains(report, "ns/bad-listed") && strings.Contains(report, "ns/bad-watched")
	})
	report := strings.Join(failures.get(), "\n")
	if strings.Contains(report, "good-") {
		t.Errorf("unmodified objects reported:\n%s", report)
	}
	if !strings.Contains(report, "edited by a handler") {
		t.Errorf("report lacks the diff:\n%s", report)
	}
}

func TestInformerMutationDetectorFollowsEnvironment(t *testing.T) {
	// Unset (or empty) in a test binary: the test form of the detector runs.
	for value, active := range map[string]bool{"": true, "false": false, "0": false, "true": true, "1": true} {
		t.Run("env="+value, func(t *testing.T) {
			t.Setenv(MutationDetectorEnvVar, value)
			informer := NewSharedIndexInformer(newSource(), &corev1.ConfigMap{}, 0, Indexers{})
			_, isActive := informer.(*sharedIndexInformer).mutationDetector.(*mutationDetector)
			if isActive != active {
				t.Errorf("%s=%q: detector active %v, want %v", MutationDetectorEnvVar, value, isActive, active)
			}
		})
	}
}
