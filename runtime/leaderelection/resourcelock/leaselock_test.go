package resourcelock_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/utils/ptr"

	"github.com/kgen-dev/kgen/builtin/kubernetes/fake"
	coordinationv1client "github.com/kgen-dev/kgen/builtin/kubernetes/typed/coordination/v1"
	coordinationv1fake "github.com/kgen-dev/kgen/builtin/kubernetes/typed/coordination/v1/fake"
	"github.com/kgen-dev/kgen/runtime/events"
	rl "github.com/kgen-dev/kgen/runtime/leaderelection/resourcelock"
	"github.com/kgen-dev/kgen/runtime/rest"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := coordinationv1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}()

// fakeLeases returns a fake coordination/v1 client over an object tracker.
func fakeLeases() (coordinationv1client.CoordinationV1Interface, ktesting.ObjectTracker) {
	tracker := ktesting.NewObjectTracker(scheme, serializer.NewCodecFactory(scheme).UniversalDecoder())
	fake := &ktesting.Fake{}
	fake.AddReactor("*", "*", ktesting.ObjectReaction(tracker))
	return &coordinationv1fake.FakeCoordinationV1{Fake: fake}, tracker
}

func TestNewAcceptsOnlyLeases(t *testing.T) {
	cs := fake.NewClientset()
	lock, err := rl.New(rl.LeasesResourceLock, "ns", "lock", cs.CoreV1(), cs.CoordinationV1(), rl.ResourceLockConfig{Identity: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if lock.Describe() != "ns/lock" || lock.Identity() != "a" {
		t.Fatalf("Describe %q, Identity %q", lock.Describe(), lock.Identity())
	}
	for lockType, want := range map[string]string{
		"endpoints":        `the "endpoints" lock type was removed from Kubernetes; use "leases"`,
		"configmaps":       `the "configmaps" lock type was removed`,
		"endpointsleases":  `the "endpointsleases" lock type was removed`,
		"configmapsleases": `the "configmapsleases" lock type was removed`,
		"lease":            `unknown lock type "lease"; use "leases"`,
	} {
		if _, err := rl.New(lockType, "ns", "lock", cs.CoreV1(), cs.CoordinationV1(), rl.ResourceLockConfig{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(%q): %v, want an error containing %q", lockType, err, want)
		}
	}
	if _, err := rl.New(rl.LeasesResourceLock, "ns", "lock", cs.CoreV1(), nil, rl.ResourceLockConfig{}); err == nil || !strings.Contains(err.Error(), "needs a coordination/v1 client") {
		t.Errorf("New without a coordination client: %v", err)
	}
}

// TestNewWithLabelsTakesClientGoShapedClients builds a lock as client-go callers do, from a
// clientset's CoreV1() and CoordinationV1(), and checks that the Lease lands in the lock's namespace
// with its labels.
func TestNewWithLabelsTakesClientGoShapedClients(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewClientset()
	lock, err := rl.NewWithLabels(rl.LeasesResourceLock, "ns", "lock", nil, cs.CoordinationV1(),
		rl.ResourceLockConfig{Identity: "a"}, map[string]string{"app": "ctl"})
	if err != nil {
		t.Fatal(err)
	}
	if err := lock.Create(ctx, rl.LeaderElectionRecord{HolderIdentity: "a", LeaseDurationSeconds: 15}); err != nil {
		t.Fatal(err)
	}
	lease, err := cs.CoordinationV1().Leases("ns").Get(ctx, "lock", metav1.GetOptions{})
	if err != nil || lease.Labels["app"] != "ctl" || *lease.Spec.HolderIdentity != "a" {
		t.Fatalf("stored lease %+v, %v", lease, err)
	}
}

func TestRecordRoundTripsThroughLeaseSpec(t *testing.T) {
	at := time.Date(2026, 11, 24, 6, 0, 0, 123456000, time.UTC)
	record := rl.LeaderElectionRecord{
		HolderIdentity: "a", LeaseDurationSeconds: 15, LeaderTransitions: 3,
		AcquireTime: metav1.NewTime(at), RenewTime: metav1.NewTime(at.Add(time.Second)),
		Strategy: coordinationv1.OldestEmulationVersion, PreferredHolder: "b",
	}
	spec := rl.LeaderElectionRecordToLeaseSpec(&record)
	if *spec.HolderIdentity != "a" || *spec.LeaseDurationSeconds != 15 || *spec.LeaseTransitions != 3 ||
		!spec.AcquireTime.Time.Equal(at) || *spec.PreferredHolder != "b" || *spec.Strategy != coordinationv1.OldestEmulationVersion {
		t.Fatalf("spec %+v", spec)
	}
	if got := rl.LeaseSpecToLeaderElectionRecord(&spec); *got != record {
		t.Fatalf("round trip: got %+v, want %+v", *got, record)
	}
	empty := rl.LeaderElectionRecordToLeaseSpec(&rl.LeaderElectionRecord{})
	if empty.PreferredHolder != nil || empty.Strategy != nil {
		t.Fatalf("empty optional fields must stay unset: %+v", empty)
	}
	if got := rl.LeaseSpecToLeaderElectionRecord(&coordinationv1.LeaseSpec{}); *got != (rl.LeaderElectionRecord{}) {
		t.Fatalf("an empty spec reads as %+v", *got)
	}
}

func TestLeaseLockCreatesGetsAndUpdates(t *testing.T) {
	ctx := context.Background()
	client, tracker := fakeLeases()
	lock := &rl.LeaseLock{
		LeaseMeta: metav1.ObjectMeta{Namespace: "ns", Name: "lock"},
		Client:    client, LockConfig: rl.ResourceLockConfig{Identity: "a"},
		Labels: map[string]string{"app": "ctl"},
	}
	if err := lock.Update(ctx, rl.LeaderElectionRecord{}); err == nil || !strings.Contains(err.Error(), "before Get or Create") {
		t.Fatalf("Update before Get: %v", err)
	}
	if _, _, err := lock.Get(ctx); !apierrors.IsNotFound(err) {
		t.Fatalf("Get of a missing lease: %v", err)
	}
	if err := lock.Create(ctx, rl.LeaderElectionRecord{HolderIdentity: "a", LeaseDurationSeconds: 15}); err != nil {
		t.Fatal(err)
	}
	record, raw, err := lock.Get(ctx)
	if err != nil || record.HolderIdentity != "a" || !strings.Contains(string(raw), `"holderIdentity":"a"`) {
		t.Fatalf("Get: %+v %s %v", record, raw, err)
	}

	// Someone else labels the lease; an update keeps their labels and ours.
	obj, _ := tracker.Get(coordinationv1.SchemeGroupVersion.WithResource("leases"), "ns", "lock")
	stored := obj.(*coordinationv1.Lease)
	if stored.Labels["app"] != "ctl" {
		t.Fatalf("created without the lock's labels: %v", stored.Labels)
	}
	stored.Labels["team"] = "x"
	if err := tracker.Update(coordinationv1.SchemeGroupVersion.WithResource("leases"), stored, "ns"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lock.Get(ctx); err != nil {
		t.Fatal(err)
	}
	if err := lock.Update(ctx, rl.LeaderElectionRecord{HolderIdentity: "a", LeaseDurationSeconds: 15, LeaderTransitions: 1}); err != nil {
		t.Fatal(err)
	}
	obj, _ = tracker.Get(coordinationv1.SchemeGroupVersion.WithResource("leases"), "ns", "lock")
	updated := obj.(*coordinationv1.Lease)
	if updated.Labels["app"] != "ctl" || updated.Labels["team"] != "x" || *updated.Spec.LeaseTransitions != 1 {
		t.Fatalf("updated lease: labels %v, spec %+v", updated.Labels, updated.Spec)
	}

	// A write since the lock's last read makes its update conflict.
	updated.Spec.HolderIdentity = ptr.To("b")
	if err := tracker.Update(coordinationv1.SchemeGroupVersion.WithResource("leases"), updated, "ns"); err != nil {
		t.Fatal(err)
	}
	if err := lock.Update(ctx, rl.LeaderElectionRecord{HolderIdentity: "a"}); !apierrors.IsConflict(err) {
		t.Fatalf("update over a concurrent write: %v, want a conflict", err)
	}
}

func TestRecordEventNamesTheLeaseAndIdentity(t *testing.T) {
	client, _ := fakeLeases()
	recorder := events.NewFakeRecorder(2)
	lock := &rl.LeaseLock{
		LeaseMeta: metav1.ObjectMeta{Namespace: "ns", Name: "lock"},
		Client:    client, LockConfig: rl.ResourceLockConfig{Identity: "a", EventRecorder: recorder},
	}
	lock.RecordEvent("became leader") // before the lease was read: refers to it by LeaseMeta
	if err := lock.Create(context.Background(), rl.LeaderElectionRecord{HolderIdentity: "a"}); err != nil {
		t.Fatal(err)
	}
	lock.RecordEvent("stopped leading")
	for _, want := range []string{"Normal LeaderElection a became leader", "Normal LeaderElection a stopped leading"} {
		if got := <-recorder.Events; got != want {
			t.Fatalf("event %q, want %q", got, want)
		}
	}
	(&rl.LeaseLock{}).RecordEvent("no recorder: nothing happens")
}

func TestNewFromKubeconfigBoundsRequestsAndNamesItself(t *testing.T) {
	var userAgent atomic.Value
	release := make(chan struct{})
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		userAgent.Store(r.UserAgent())
		select { // hang like an overloaded server
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer server.Close()
	defer close(release)

	lock, err := rl.NewFromKubeconfig(rl.LeasesResourceLock, "ns", "lock", rl.ResourceLockConfig{Identity: "a"},
		&rest.Config{Host: server.URL}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// Requests time out after half the renew deadline (1s), so a Get from a hanging server gives up.
	rc := lock.(*rl.LeaseLock).Client.(*coordinationv1client.CoordinationV1Client).RESTClient().(*rest.RESTClient)
	if timeout := rc.Client.Timeout; timeout != time.Second {
		t.Fatalf("request timeout %v, want half the renew deadline (1s)", timeout)
	}
	if _, _, err := lock.Get(context.Background()); err == nil {
		t.Fatal("Get from a hanging server succeeded")
	}
	if ua, _ := userAgent.Load().(string); !strings.HasSuffix(ua, "/leader-election") {
		t.Fatalf("user agent %q", ua)
	}
}

func TestGetNoticesRenewalsWithinOneSecond(t *testing.T) {
	ctx := context.Background()
	client, _ := fakeLeases()
	lock := &rl.LeaseLock{LeaseMeta: metav1.ObjectMeta{Namespace: "ns", Name: "lock"}, Client: client}
	at := time.Date(2026, 11, 24, 6, 0, 0, 0, time.UTC)
	record := rl.LeaderElectionRecord{HolderIdentity: "a", LeaseDurationSeconds: 15, AcquireTime: metav1.NewTime(at), RenewTime: metav1.NewTime(at)}
	if err := lock.Create(ctx, record); err != nil {
		t.Fatal(err)
	}
	_, before, err := lock.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	record.RenewTime = metav1.NewTime(at.Add(250 * time.Millisecond))
	if err := lock.Update(ctx, record); err != nil {
		t.Fatal(err)
	}
	_, after, err := lock.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(before) == string(after) {
		t.Fatalf("a renewal 250ms later left the serialized record unchanged: %s", after)
	}
}
