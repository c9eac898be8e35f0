package e2e_test

import (
	"context"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/rand"

	coordinationv1client "github.com/kgen-dev/kgen/builtin/kubernetes/typed/coordination/v1"
	"github.com/kgen-dev/kgen/runtime/events"
	le "github.com/kgen-dev/kgen/runtime/leaderelection"
	rl "github.com/kgen-dev/kgen/runtime/leaderelection/resourcelock"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{}, &env))
}

// Short but realistic timings: a dead leader is replaced within about three seconds.
const (
	leaseDuration = 3 * time.Second
	renewDeadline = 2 * time.Second
	retryPeriod   = 250 * time.Millisecond
)

// candidate is one elector in its own goroutine, with what its callbacks saw.
type candidate struct {
	identity string
	lock     rl.Interface
	work     chan context.Context // OnStartedLeading's context
	stopped  chan struct{}        // closed by OnStoppedLeading
	returned chan struct{}        // closed when Run returns
	cancel   context.CancelFunc

	mu      sync.Mutex
	leaders []string
}

// run starts candidate identity on the Lease default/name of the server config points at.
func run(t *testing.T, config *rest.Config, name, identity string, release bool, recorder rl.EventRecorder) *candidate {
	t.Helper()
	lock, err := rl.NewFromKubeconfig(rl.LeasesResourceLock, metav1.NamespaceDefault, name,
		rl.ResourceLockConfig{Identity: identity, EventRecorder: recorder}, config, renewDeadline)
	if err != nil {
		t.Fatal(err)
	}
	c := &candidate{identity: identity, lock: lock, work: make(chan context.Context, 1), stopped: make(chan struct{}), returned: make(chan struct{})}
	elector, err := le.NewLeaderElector(le.LeaderElectionConfig{
		Lock: lock, LeaseDuration: leaseDuration, RenewDeadline: renewDeadline, RetryPeriod: retryPeriod,
		ReleaseOnCancel: release, Name: name,
		Callbacks: le.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { c.work <- ctx },
			OnStoppedLeading: func() { close(c.stopped) },
			OnNewLeader: func(identity string) {
				c.mu.Lock()
				c.leaders = append(c.leaders, identity)
				c.mu.Unlock()
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go func() {
		defer close(c.returned)
		elector.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-c.returned
	})
	return c
}

// leading waits until c leads and returns its leading context.
func (c *candidate) leading(t *testing.T, within time.Duration) context.Context {
	t.Helper()
	select {
	case ctx := <-c.work:
		return ctx
	case <-time.After(within):
		t.Fatalf("%s did not start leading within %v", c.identity, within)
		return nil
	}
}

func (c *candidate) notLeading(t *testing.T, for_ time.Duration) {
	t.Helper()
	select {
	case <-c.work:
		t.Fatalf("%s started leading while another candidate held the lease", c.identity)
	case <-time.After(for_):
	}
}

func (c *candidate) done(t *testing.T, within time.Duration) {
	t.Helper()
	for _, ch := range []chan struct{}{c.stopped, c.returned} {
		select {
		case <-ch:
		case <-time.After(within):
			t.Fatalf("%s did not stop within %v", c.identity, within)
		}
	}
}

func (c *candidate) observedLeaders() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.leaders)
}

// storedLease reads the Lease from the server.
func storedLease(t *testing.T, name string) *coordinationv1.Lease {
	t.Helper()
	client, err := coordinationv1client.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	lease, err := client.Leases(metav1.NamespaceDefault).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return lease
}

func TestReleasedLeaseIsHandedOverAtOnce(t *testing.T) {
	name := "handover-" + rand.String(5)
	sink, err := events.NewEventSinkForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	broadcaster := events.NewBroadcaster()
	broadcaster.StartRecordingToSink(sink)
	t.Cleanup(broadcaster.Shutdown)
	s := runtime.NewScheme()
	if err := coordinationv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	recorder := broadcaster.NewRecorder(s, corev1.EventSource{Component: "e2e"})

	a := run(t, env.Config(), name, "a", true, recorder)
	aWork := a.leading(t, 10*time.Second)
	b := run(t, env.Config(), name, "b", true, nil)
	b.notLeading(t, leaseDuration+time.Second) // a renews: b waits however long it takes
	if got := b.observedLeaders(); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("b observed leaders %v", got)
	}

	released := time.Now()
	a.cancel()
	a.done(t, renewDeadline)
	if aWork.Err() == nil {
		t.Fatal("a's work context was not cancelled")
	}
	b.leading(t, leaseDuration)
	t.Logf("b led %v after a released the lease", time.Since(released).Round(time.Millisecond))
	lease := storedLease(t, name)
	if *lease.Spec.HolderIdentity != "b" || *lease.Spec.LeaseTransitions != 1 || *lease.Spec.LeaseDurationSeconds != 3 {
		t.Fatalf("lease spec %+v", lease.Spec)
	}

	// a's leadership was recorded as Events on the Lease.
	core, err := rest.RESTClientForGroupVersion(env.Config(), "/api", corev1.SchemeGroupVersion, eventScheme())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a became leader", "a stopped leading"}
	deadline := time.Now().Add(30 * time.Second)
	for {
		list := &corev1.EventList{}
		err := core.Get().Namespace(metav1.NamespaceDefault).Resource("events").
			Param("fieldSelector", fields.OneTermEqualSelector("involvedObject.name", name).String()).
			Do(context.Background()).Into(list)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range list.Items {
			if e.Reason == "LeaderElection" && e.InvolvedObject.Kind == "Lease" {
				got = append(got, e.Message)
			}
		}
		slices.Sort(got)
		if slices.Equal(got, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("LeaderElection events on the Lease: %q, want %q", got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func eventScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}

func TestUnreleasedLeaseIsTakenOverWhenItExpires(t *testing.T) {
	name := "expiry-" + rand.String(5)
	a := run(t, env.Config(), name, "a", false, nil)
	a.leading(t, 10*time.Second)
	b := run(t, env.Config(), name, "b", false, nil)
	b.notLeading(t, time.Second)

	stopped := time.Now()
	a.cancel() // a dies without releasing: b must wait out the lease
	a.done(t, renewDeadline)
	b.leading(t, 3*leaseDuration)
	waited := time.Since(stopped)
	t.Logf("b led %v after a stopped renewing", waited.Round(time.Millisecond))
	if waited < leaseDuration-2*retryPeriod {
		t.Fatalf("b took over %v after a's last renewal, before a's %v lease ran out", waited, leaseDuration)
	}
	lease := storedLease(t, name)
	if *lease.Spec.HolderIdentity != "b" || *lease.Spec.LeaseTransitions != 1 {
		t.Fatalf("lease spec %+v", lease.Spec)
	}
	if got := b.observedLeaders(); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("b observed leaders %v", got)
	}
}

func TestLeaderStepsDownWhenTheServerGoesAway(t *testing.T) {
	own, err := testenv.Start(context.Background(), testenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Stop()
	a := run(t, own.Config(), "gone-"+rand.String(5), "a", true, nil)
	work := a.leading(t, 10*time.Second)
	if err := own.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	a.done(t, retryPeriod+renewDeadline+2*time.Second)
	t.Logf("a stepped down %v after the server stopped", time.Since(stopped).Round(time.Millisecond))
	if work.Err() == nil {
		t.Fatal("a's work context was not cancelled")
	}
}
