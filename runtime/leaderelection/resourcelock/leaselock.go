package resourcelock

import (
	"context"
	"encoding/json"
	"errors"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	coordinationv1client "github.com/kgen-dev/kgen/builtin/kubernetes/typed/coordination/v1"
)

// LeaseLock is a lock stored in a coordination.k8s.io/v1 Lease.
type LeaseLock struct {
	// LeaseMeta names the Lease.
	LeaseMeta metav1.ObjectMeta
	// Client serves Leases, e.g. a clientset's CoordinationV1().
	Client coordinationv1client.LeasesGetter
	// LockConfig names this candidate and where its events go.
	LockConfig ResourceLockConfig
	// Labels are set on the Lease when it is created and kept on it by every update.
	Labels map[string]string

	lease *coordinationv1.Lease // as last read or written
}

// Get reads the Lease and returns its record. The serialized form is the Lease spec, whose times
// have microseconds: every renewal changes it, even several within one second, where the record's
// own JSON (whole seconds, which client-go compares) would not and a waiting candidate would time
// the lease from an earlier renewal.
func (ll *LeaseLock) Get(ctx context.Context) (*LeaderElectionRecord, []byte, error) {
	lease, err := ll.Client.Leases(ll.LeaseMeta.Namespace).Get(ctx, ll.LeaseMeta.Name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, err
	}
	ll.lease = lease
	raw, err := json.Marshal(&lease.Spec)
	if err != nil {
		return nil, nil, err
	}
	return LeaseSpecToLeaderElectionRecord(&lease.Spec), raw, nil
}

// Create creates the Lease holding ler.
func (ll *LeaseLock) Create(ctx context.Context, ler LeaderElectionRecord) error {
	lease, err := ll.Client.Leases(ll.LeaseMeta.Namespace).Create(ctx, &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: ll.LeaseMeta.Name, Namespace: ll.LeaseMeta.Namespace, Labels: ll.Labels},
		Spec:       LeaderElectionRecordToLeaseSpec(&ler),
	}, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	ll.lease = lease
	return nil
}

// Update writes ler to the Lease last read or written, so a concurrent writer makes it fail with a
// conflict.
func (ll *LeaseLock) Update(ctx context.Context, ler LeaderElectionRecord) error {
	if ll.lease == nil {
		return errors.New("resourcelock: Update before Get or Create: the Lease has not been read")
	}
	lease := ll.lease.DeepCopy()
	lease.Spec = LeaderElectionRecordToLeaseSpec(&ler)
	if len(ll.Labels) > 0 && lease.Labels == nil {
		lease.Labels = make(map[string]string, len(ll.Labels))
	}
	for k, v := range ll.Labels {
		lease.Labels[k] = v
	}
	updated, err := ll.Client.Leases(ll.LeaseMeta.Namespace).Update(ctx, lease, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	ll.lease = updated
	return nil
}

// RecordEvent records a LeaderElection event "<identity> <s>" on the Lease.
func (ll *LeaseLock) RecordEvent(s string) {
	if ll.LockConfig.EventRecorder == nil {
		return
	}
	subject := &coordinationv1.Lease{ObjectMeta: ll.LeaseMeta}
	if ll.lease != nil {
		subject.ObjectMeta = ll.lease.ObjectMeta
	}
	subject.SetGroupVersionKind(coordinationv1.SchemeGroupVersion.WithKind("Lease"))
	ll.LockConfig.EventRecorder.Eventf(subject, corev1.EventTypeNormal, "LeaderElection", "%s %s", ll.LockConfig.Identity, s)
}

// Describe returns "namespace/name" of the Lease.
func (ll *LeaseLock) Describe() string {
	return ll.LeaseMeta.Namespace + "/" + ll.LeaseMeta.Name
}

// Identity returns this candidate's identity.
func (ll *LeaseLock) Identity() string {
	return ll.LockConfig.Identity
}

// LeaseSpecToLeaderElectionRecord reads a record from a Lease spec; unset fields read as zero.
func LeaseSpecToLeaderElectionRecord(spec *coordinationv1.LeaseSpec) *LeaderElectionRecord {
	r := &LeaderElectionRecord{
		HolderIdentity:       ptr.Deref(spec.HolderIdentity, ""),
		LeaseDurationSeconds: int(ptr.Deref(spec.LeaseDurationSeconds, 0)),
		LeaderTransitions:    int(ptr.Deref(spec.LeaseTransitions, 0)),
		PreferredHolder:      ptr.Deref(spec.PreferredHolder, ""),
		Strategy:             ptr.Deref(spec.Strategy, ""),
	}
	if spec.AcquireTime != nil {
		r.AcquireTime = metav1.NewTime(spec.AcquireTime.Time)
	}
	if spec.RenewTime != nil {
		r.RenewTime = metav1.NewTime(spec.RenewTime.Time)
	}
	return r
}

// LeaderElectionRecordToLeaseSpec writes a record as a Lease spec; empty PreferredHolder and
// Strategy stay unset.
func LeaderElectionRecordToLeaseSpec(ler *LeaderElectionRecord) coordinationv1.LeaseSpec {
	spec := coordinationv1.LeaseSpec{
		HolderIdentity:       &ler.HolderIdentity,
		LeaseDurationSeconds: ptr.To(int32(ler.LeaseDurationSeconds)),
		AcquireTime:          &metav1.MicroTime{Time: ler.AcquireTime.Time},
		RenewTime:            &metav1.MicroTime{Time: ler.RenewTime.Time},
		LeaseTransitions:     ptr.To(int32(ler.LeaderTransitions)),
	}
	if ler.PreferredHolder != "" {
		spec.PreferredHolder = &ler.PreferredHolder
	}
	if ler.Strategy != "" {
		spec.Strategy = &ler.Strategy
	}
	return spec
}
