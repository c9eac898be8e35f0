package sharding

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/cache"
	le "github.com/kgen-dev/kgen/runtime/leaderelection"
	rl "github.com/kgen-dev/kgen/runtime/leaderelection/resourcelock"
	"github.com/kgen-dev/kgen/runtime/workqueue"
)

// labelMode is LabelMode: each object's owner is its shard label. One replica, elected on the
// ring's Lease, runs the coordinator (label_coordinator.go), which labels new objects and drains
// moved ones; the guard hands drained objects over and checks, once per tenure of the member Lease,
// that what the cache shows as ours is ours on the server; replicas claim the objects of departed
// members themselves.
type labelMode struct {
	r *Replica

	verifyMu sync.Mutex
	verified map[schema.GroupVersionResource]*verifiedSet
}

func newLabelMode(r *Replica) *labelMode {
	return &labelMode{r: r, verified: map[schema.GroupVersionResource]*verifiedSet{}}
}

// LabelSelector selects, in LabelMode, the objects assigned to this replica; give it to the
// controller's informers (for example through a factory's WithTweakListOptions) so the replica caches
// only its share.
func (r *Replica) LabelSelector() string { return ShardLabel(r.cfg.Ring) + "=" + r.cfg.Identity }

// TweakListOptions sets LabelSelector on opts, in the shape informer factories take (LabelMode; in
// ServerMode use ListerWatcher, which also restarts the informer when the replica's share changes).
func (r *Replica) TweakListOptions(opts *metav1.ListOptions) { opts.LabelSelector = r.LabelSelector() }

// ringWork runs for coordinator on the ring's Lease, and coordinates while elected.
func (m *labelMode) ringWork(ctx context.Context, _ klog.Logger) (func(), error) {
	r := m.r
	lock := &rl.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: r.cfg.Namespace, Name: r.cfg.Ring},
		Client:     namespaceLeases{r.cfg.Leases},
		LockConfig: rl.ResourceLockConfig{Identity: r.member.holder},
	}
	elector, err := le.NewLeaderElector(le.LeaderElectionConfig{
		Lock: lock, LeaseDuration: r.cfg.LeaseDuration, RenewDeadline: r.cfg.RenewDeadline, RetryPeriod: r.cfg.RetryPeriod,
		Name: "sharding-" + r.cfg.Ring, Clock: r.clock, ReleaseOnCancel: true,
		Callbacks: le.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { newCoordinator(r).run(ctx) },
			OnStoppedLeading: func() {},
		},
	})
	if err != nil {
		return nil, err
	}
	return func() {
		for ctx.Err() == nil {
			elector.Run(ctx)
		}
	}, nil
}

// reconcile runs reconcile for an object labelled for this replica with no drain request, once
// the server confirmed it is ours; for a drain request it acknowledges instead.
func (m *labelMode) reconcile(ctx context.Context, res Resource, epoch uint64, key string, obj metav1.Object, parked *parked, reconcile ReconcileFunc) error {
	labels := obj.GetLabels()
	if labels[ShardLabel(m.r.cfg.Ring)] != m.r.cfg.Identity {
		return nil
	}
	if target := labels[DrainLabel(m.r.cfg.Ring)]; target != "" {
		return m.acknowledge(ctx, res, obj, target)
	}
	if mine, err := m.verify(ctx, res, obj); err != nil || !mine {
		return err
	}
	return m.r.runOwned(ctx, epoch, key, parked, reconcile)
}

// departed claims, in parallel, the objects of departed members that the ring now places here.
func (m *labelMode) departed(ctx context.Context, logger klog.Logger, members []string) {
	var wg sync.WaitGroup
	for _, id := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := m.claimFrom(ctx, id); err != nil {
				logger.V(2).Info("sharding: claiming a departed member's objects failed; the coordinator moves them", "member", id, "err", err)
			}
		}()
	}
	wg.Wait()
}

// leaseClaim returns no claim: labels say who owns what.
func (m *labelMode) leaseClaim(bool) string { return "" }

// leaseWritten does nothing.
func (m *labelMode) leaseWritten(string) {}

// leaseAnnotations leaves a member Lease's annotations as they are.
func (m *labelMode) leaseAnnotations(existing map[string]string, _ string) map[string]string {
	return existing
}

// controlledFollowOwners is true: controlled objects are labelled with their owner's shard.
func (m *labelMode) controlledFollowOwners() bool { return true }

// listerWatcher sets LabelSelector on every list and watch.
func (m *labelMode) listerWatcher(lw cache.ListerWatcherWithContext) cache.ListerWatcher {
	return &labelListWatch{r: m.r, lw: lw}
}

// labelListWatch lists and watches the objects labelled for one replica. A list or watch waits
// until the replica is a member: a replica that is not reconciles nothing, and when the API server
// was unreachable past the renew deadline, the informer resumes the moment the replica's first
// renewal after the outage succeeds, rather than after its retry delay, which the server's refusals
// and errors while starting up may have grown to seconds.
type labelListWatch struct {
	r  *Replica
	lw cache.ListerWatcherWithContext
}

// List lists with a background context.
func (l *labelListWatch) List(opts metav1.ListOptions) (runtime.Object, error) {
	return l.ListWithContext(context.Background(), opts)
}

// Watch watches with a background context.
func (l *labelListWatch) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return l.WatchWithContext(context.Background(), opts)
}

// ListWithContext lists the objects labelled for this replica.
func (l *labelListWatch) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	if err := l.r.member.waitMember(ctx); err != nil {
		return nil, err
	}
	l.r.TweakListOptions(&opts)
	return l.lw.ListWithContext(ctx, opts)
}

// WatchWithContext watches the objects labelled for this replica.
func (l *labelListWatch) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if err := l.r.member.waitMember(ctx); err != nil {
		return nil, err
	}
	l.r.TweakListOptions(&opts)
	return l.lw.WatchWithContext(ctx, opts)
}

// acknowledge hands obj to target, compare-and-swap on the cached version.
func (m *labelMode) acknowledge(ctx context.Context, res Resource, obj metav1.Object, target string) error {
	patch := labelPatch(obj.GetResourceVersion(), map[string]any{ShardLabel(m.r.cfg.Ring): target, DrainLabel(m.r.cfg.Ring): nil})
	_, err := m.r.client(res, obj.GetNamespace()).Patch(ctx, obj.GetName(), types.MergePatchType, patch, metav1.PatchOptions{})
	switch {
	case err == nil:
		klog.FromContext(ctx).V(2).Info("sharding: drained object", "resource", res.Resource.Resource,
			"object", klog.KRef(obj.GetNamespace(), obj.GetName()), "to", target)
		return nil
	case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
		return nil // the cache is behind; the next event brings the object back if it is still ours
	default:
		return err
	}
}

// verifiedSet is what a consistent list said this replica owned when a tenure of its Lease began.
type verifiedSet struct {
	tenure uint64
	once   sync.Once
	err    error
	keys   map[types.UID]bool // objects known to be ours in this tenure; never false, since objects move back
	listRV uint64             // the list's resourceVersion; 0 if it was not a number
}

// verify reports whether obj, shown as ours by the cache, is ours on the server. Objects listed as
// ours when the tenure began are, and so is a cached version written after that list, since only a
// drain this replica acknowledges or a fence, which ends the tenure, moves an object off a member
// whose Lease it holds; a lapse of membership within a tenure (a renewal missed the renew deadline,
// the API server was unreachable) moves nothing. Any other object is read from the server once per
// tenure. Comparing resourceVersions as numbers relies on etcd's, as every kube-apiserver has; one
// that is not a number is read from the server.
func (m *labelMode) verify(ctx context.Context, res Resource, obj metav1.Object) (bool, error) {
	tenure := m.r.member.currentTenure()
	m.verifyMu.Lock()
	set := m.verified[res.Resource]
	if set == nil || set.tenure != tenure {
		set = &verifiedSet{tenure: tenure}
		m.verified[res.Resource] = set
	}
	m.verifyMu.Unlock()
	set.once.Do(func() { set.keys, set.listRV, set.err = m.listOwned(ctx, res) })
	if set.err != nil {
		m.verifyMu.Lock()
		if m.verified[res.Resource] == set {
			delete(m.verified, res.Resource)
		}
		m.verifyMu.Unlock()
		return false, set.err
	}
	m.verifyMu.Lock()
	known := set.keys[obj.GetUID()]
	m.verifyMu.Unlock()
	if known {
		return true, nil
	}
	if rv, err := strconv.ParseUint(obj.GetResourceVersion(), 10, 64); err == nil && set.listRV != 0 && rv > set.listRV {
		return true, nil // labels and drain label were read from the cache by the caller
	}
	live, err := m.r.client(res, obj.GetNamespace()).Get(ctx, obj.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	l := live.GetLabels()
	mine := l[ShardLabel(m.r.cfg.Ring)] == m.r.cfg.Identity && l[DrainLabel(m.r.cfg.Ring)] == ""
	if mine {
		m.verifyMu.Lock()
		set.keys[obj.GetUID()] = true
		m.verifyMu.Unlock()
	}
	return mine, nil
}

func (m *labelMode) listOwned(ctx context.Context, res Resource) (map[types.UID]bool, uint64, error) {
	keys := map[types.UID]bool{}
	opts := metav1.ListOptions{LabelSelector: m.r.LabelSelector(), Limit: 500}
	var listRV uint64
	for {
		list, err := m.r.client(res, m.r.cfg.ObjectNamespace).List(ctx, opts)
		if err != nil {
			return nil, 0, fmt.Errorf("sharding: listing the objects this replica owns: %w", err)
		}
		if opts.Continue == "" {
			listRV, _ = strconv.ParseUint(list.ResourceVersion, 10, 64)
		}
		for i := range list.Items {
			if list.Items[i].Labels[DrainLabel(m.r.cfg.Ring)] == "" {
				keys[list.Items[i].UID] = true
			}
		}
		if list.Continue == "" {
			return keys, listRV, nil
		}
		opts.Continue = list.Continue
	}
}

// labelPatch is a JSON merge patch setting labels (nil deletes) with a resourceVersion precondition.
func labelPatch(resourceVersion string, labels map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"metadata": map[string]any{"resourceVersion": resourceVersion, "labels": labels}})
	return b
}

// claimFrom labels with this replica's identity the objects of departed member that the ring
// places here.
func (m *labelMode) claimFrom(ctx context.Context, member string) error {
	ring := m.r.observer.currentRing()
	var mains []schema.GroupKind
	for _, res := range m.r.cfg.Resources {
		mains = append(mains, res.groupKind())
	}
	patch := claimPatch(m.r.cfg.Ring, member, m.r.cfg.Identity)
	var claimed atomic.Int64
	var firstErr error
	var errOnce sync.Once
	for _, res := range append(append([]Resource(nil), m.r.cfg.Resources...), m.r.cfg.Controlled...) {
		opts := metav1.ListOptions{LabelSelector: ShardLabel(m.r.cfg.Ring) + "=" + member, Limit: 500}
		for {
			list, err := m.r.client(res, m.r.cfg.ObjectNamespace).List(ctx, opts)
			if err != nil {
				return err
			}
			workqueue.ParallelizeUntil(ctx, m.r.cfg.Workers, len(list.Items), func(i int) {
				obj := &list.Items[i]
				if ring.Owner(HashKey(res.groupKind(), obj, mains)) != m.r.cfg.Identity {
					return
				}
				_, err := m.r.client(res, obj.Namespace).Patch(ctx, obj.Name, types.JSONPatchType, patch, metav1.PatchOptions{})
				switch {
				case err == nil:
					claimed.Add(1)
					m.r.metrics.moves.Inc()
				case !apierrors.IsInvalid(err) && !apierrors.IsNotFound(err):
					errOnce.Do(func() { firstErr = err })
				}
			})
			if firstErr != nil {
				return firstErr
			}
			if list.Continue == "" {
				break
			}
			opts.Continue = list.Continue
		}
	}
	if n := claimed.Load(); n > 0 {
		klog.FromContext(ctx).Info("sharding: took over objects of a departed member", "member", member, "objects", n)
	}
	return nil
}

// claimPatch is a JSON patch giving an object to identity on condition that it still belongs to
// member, and dropping any drain request member can no longer acknowledge. Conditioning on the label
// rather than on the resourceVersion lets a claim succeed although the object's spec or status
// changed since it was listed; a failed condition is answered with 422 Unprocessable Entity.
func claimPatch(ring, member, identity string) []byte {
	shard := "/metadata/labels/" + jsonPointerEscape(ShardLabel(ring))
	drain := "/metadata/labels/" + jsonPointerEscape(DrainLabel(ring))
	b, _ := json.Marshal([]map[string]any{
		{"op": "test", "path": shard, "value": member},
		{"op": "replace", "path": shard, "value": identity},
		{"op": "add", "path": drain, "value": ""}, // so that the removal cannot fail
		{"op": "remove", "path": drain},
	})
	return b
}

// jsonPointerEscape escapes a map key for a JSON pointer (RFC 6901).
func jsonPointerEscape(key string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}
