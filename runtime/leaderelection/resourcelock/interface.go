// Package resourcelock holds the locks a leader election runs on: the record of who leads and the
// Lease that stores it.
package resourcelock

import (
	"context"
	"errors"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	coordinationv1client "github.com/kgen-dev/kgen/builtin/kubernetes/typed/coordination/v1"
	corev1client "github.com/kgen-dev/kgen/builtin/kubernetes/typed/core/v1"
	"github.com/kgen-dev/kgen/runtime/rest"
)

// LeasesResourceLock is the lock type of a coordination.k8s.io/v1 Lease, the only lock the API
// server still supports for leader election.
const LeasesResourceLock = "leases"

// Lock types client-go once offered; New names the replacement when asked for one.
const (
	endpointsResourceLock        = "endpoints"
	configMapsResourceLock       = "configmaps"
	endpointsLeasesResourceLock  = "endpointsleases"
	configMapsLeasesResourceLock = "configmapsleases"
)

// LeaderElectionRecord is what a lock stores: who leads, for how long, and since when.
type LeaderElectionRecord struct {
	// HolderIdentity is the leader's identity; empty when the lease was released.
	HolderIdentity string `json:"holderIdentity"`
	// LeaseDurationSeconds is how long candidates wait, from when they saw the record change, before
	// taking the lock over.
	LeaseDurationSeconds int         `json:"leaseDurationSeconds"`
	AcquireTime          metav1.Time `json:"acquireTime"`
	RenewTime            metav1.Time `json:"renewTime"`
	// LeaderTransitions counts changes of holder.
	LeaderTransitions int `json:"leaderTransitions"`
	// Strategy and PreferredHolder are set by coordinated leader election on the server.
	Strategy        coordinationv1.CoordinatedLeaseStrategy `json:"strategy"`
	PreferredHolder string                                  `json:"preferredHolder"`
}

// EventRecorder records events about the lock; runtime/events recorders satisfy it.
type EventRecorder interface {
	Eventf(obj runtime.Object, eventType, reason, message string, args ...any)
}

// ResourceLockConfig names the candidate holding a lock and where its events go.
type ResourceLockConfig struct {
	// Identity is this candidate's unique name, typically the pod or host name.
	Identity string
	// EventRecorder, if set, records leadership changes as events on the lock's object.
	EventRecorder EventRecorder
}

// Interface is a lock that stores a LeaderElectionRecord. A leader elector calls it from one
// goroutine; implementations need not be safe for concurrent use.
type Interface interface {
	// Get returns the stored record and a serialized form of it, which the elector compares to
	// notice changes: it must change whenever the record is written.
	Get(ctx context.Context) (*LeaderElectionRecord, []byte, error)
	// Create stores the first record; it fails if the lock exists.
	Create(ctx context.Context, ler LeaderElectionRecord) error
	// Update replaces the record read by the last Get or written by the last Create or Update; it
	// fails with a conflict when someone else wrote in between.
	Update(ctx context.Context, ler LeaderElectionRecord) error
	// RecordEvent records an event about this candidate, e.g. "became leader".
	RecordEvent(string)
	// Identity returns this candidate's identity.
	Identity() string
	// Describe names the lock for logs, e.g. "namespace/name".
	Describe() string
}

// New returns a lock of lockType, which must be LeasesResourceLock, on the Lease ns/name, read and
// written through coordinationClient. coreClient is accepted for client-go's signature and unused:
// it served the ConfigMap and Endpoints locks Kubernetes removed, so it may be nil.
func New(lockType, ns, name string, coreClient corev1client.CoreV1Interface, coordinationClient coordinationv1client.CoordinationV1Interface, rlc ResourceLockConfig) (Interface, error) {
	return NewWithLabels(lockType, ns, name, coreClient, coordinationClient, rlc, nil)
}

// NewWithLabels is New for a Lease that carries labels.
func NewWithLabels(lockType, ns, name string, _ corev1client.CoreV1Interface, coordinationClient coordinationv1client.CoordinationV1Interface, rlc ResourceLockConfig, labels map[string]string) (Interface, error) {
	switch lockType {
	case LeasesResourceLock:
		if coordinationClient == nil {
			return nil, errors.New("resourcelock: a Lease lock needs a coordination/v1 client, got nil")
		}
		return &LeaseLock{
			LeaseMeta:  metav1.ObjectMeta{Namespace: ns, Name: name},
			Client:     coordinationClient,
			LockConfig: rlc,
			Labels:     labels,
		}, nil
	case endpointsResourceLock, configMapsResourceLock, endpointsLeasesResourceLock, configMapsLeasesResourceLock:
		return nil, fmt.Errorf("resourcelock: the %q lock type was removed from Kubernetes; use %q", lockType, LeasesResourceLock)
	default:
		return nil, fmt.Errorf("resourcelock: unknown lock type %q; use %q", lockType, LeasesResourceLock)
	}
}

// NewFromKubeconfig is New over a coordination/v1 client of its own built from config, whose
// requests time out after half of renewDeadline (at least a second) so one slow call cannot use up a
// renewal.
func NewFromKubeconfig(lockType, ns, name string, rlc ResourceLockConfig, config *rest.Config, renewDeadline time.Duration) (Interface, error) {
	c := rest.CopyConfig(config)
	c.Timeout = max(renewDeadline/2, time.Second)
	client, err := coordinationv1client.NewForConfig(rest.AddUserAgent(c, "leader-election"))
	if err != nil {
		return nil, fmt.Errorf("resourcelock: building the Lease client: %w", err)
	}
	return New(lockType, ns, name, nil, client, rlc)
}
