package sharding

import (
	"context"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/workqueue"
)

// coordinator is the elected replica's job: it assigns unlabelled objects, asks live owners to drain
// objects the ring places elsewhere, and moves objects off members that stopped renewing, after
// fencing their Leases. It caches only object metadata.
type coordinator struct {
	r         *Replica
	resources []Resource // Resources, then Controlled
	mains     []schema.GroupKind
	informers []cache.SharedIndexInformer
	stores    []cache.Store // the informers' caches, by resource index
	queue     workqueue.TypedRateLimitingInterface[objectRef]

	mu          sync.Mutex
	drainStart  map[objectRef]time.Time
	foreignSeen map[objectRef]string
	shardGauges map[string]GaugeMetric
	foreign     map[string]*foreignRing // other rings seen on objects, by name
}

// foreignRing is what the coordinator observed of another ring's member Leases.
type foreignRing struct {
	checked time.Time
	live    bool
	leases  map[string]*memberState // by Lease name
}

type objectRef struct {
	resource int
	key      string // namespace/name
}

func newCoordinator(r *Replica) *coordinator {
	c := &coordinator{r: r, drainStart: map[objectRef]time.Time{}, foreignSeen: map[objectRef]string{},
		shardGauges: map[string]GaugeMetric{}, foreign: map[string]*foreignRing{}}
	c.resources = append(append(c.resources, r.cfg.Resources...), r.cfg.Controlled...)
	for _, res := range r.cfg.Resources {
		c.mains = append(c.mains, res.groupKind())
	}
	return c
}

func (c *coordinator) run(ctx context.Context) {
	logger := klog.FromContext(ctx)
	logger.Info("sharding: coordinating the ring")
	defer c.dropShardSizes()
	c.queue = workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[objectRef](),
		workqueue.TypedRateLimitingQueueConfig[objectRef]{Clock: c.r.clock})
	defer c.queue.ShutDown()
	for i, res := range c.resources {
		inf := c.newInformer(res)
		_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { c.enqueue(i, obj) },
			UpdateFunc: func(_, obj any) { c.enqueue(i, obj) },
		})
		c.informers = append(c.informers, inf)
		c.stores = append(c.stores, inf.GetStore())
		go inf.RunWithContext(ctx)
	}
	for _, inf := range c.informers {
		if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
			return
		}
	}
	var wg sync.WaitGroup
	for range c.r.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c.processNext(ctx) {
			}
		}()
	}
	defer wg.Wait()
	defer c.queue.ShutDown()
	ticker := c.r.clock.NewTicker(c.r.cfg.RetryPeriod)
	defer ticker.Stop()
	for {
		c.fenceExpired(ctx, logger)
		c.enqueueAll()
		c.reportShardSizes()
		select {
		case <-ctx.Done():
			logger.Info("sharding: stopped coordinating the ring")
			return
		case <-c.r.changed:
		case <-ticker.C():
		}
	}
}

func (c *coordinator) newInformer(res Resource) cache.SharedIndexInformer {
	client := c.r.client(res, c.r.cfg.ObjectNamespace)
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return client.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return client.Watch(ctx, opts)
		},
	}
	return cache.NewSharedIndexInformer(lw, &metav1.PartialObjectMetadata{}, 0, cache.Indexers{})
}

func (c *coordinator) enqueue(i int, obj any) {
	if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
		c.queue.Add(objectRef{resource: i, key: key})
	}
}

// enqueueAll puts every cached object in the queue; the queue drops duplicates, and objects already
// where the ring wants them cost one lookup.
func (c *coordinator) enqueueAll() {
	for i, store := range c.stores {
		for _, key := range store.ListKeys() {
			c.queue.Add(objectRef{resource: i, key: key})
		}
	}
}

// fenceExpired fences the Leases of members that stopped renewing, so their objects can move.
func (c *coordinator) fenceExpired(ctx context.Context, logger klog.Logger) {
	fenced := false
	for _, l := range c.r.observer.expired() {
		if c.r.observer.fence(ctx, logger, l) {
			fenced = true
		}
	}
	if fenced && c.r.observer.recompute() {
		c.r.ringChanged(logger)
	}
}

func (c *coordinator) reportShardSizes() {
	counts := map[string]int{}
	label := ShardLabel(c.r.cfg.Ring)
	for _, store := range c.stores[:len(c.r.cfg.Resources)] {
		for _, item := range store.List() {
			if m, ok := item.(metav1.Object); ok {
				counts[m.GetLabels()[label]]++
			}
		}
	}
	for _, id := range c.r.observer.currentRing().Members() {
		counts[id] += 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for shard, n := range counts {
		g := c.shardGauges[shard]
		if g == nil {
			g = c.r.metrics.provider.NewShardObjectsMetric(c.r.cfg.Ring, shard)
			c.shardGauges[shard] = g
		}
		g.Set(float64(n))
	}
	for shard := range c.shardGauges {
		if _, ok := counts[shard]; !ok { // not a live member, and no object names it
			c.r.metrics.provider.DeleteShardObjectsMetric(c.r.cfg.Ring, shard)
			delete(c.shardGauges, shard)
		}
	}
}

// dropShardSizes deletes every objects-per-shard metric this coordinator reported: once it stops
// coordinating, the new coordinator reports them.
func (c *coordinator) dropShardSizes() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for shard := range c.shardGauges {
		c.r.metrics.provider.DeleteShardObjectsMetric(c.r.cfg.Ring, shard)
		delete(c.shardGauges, shard)
	}
}

func (c *coordinator) processNext(ctx context.Context) bool {
	ref, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(ref)
	if err := c.sync(ctx, ref); err != nil {
		klog.FromContext(ctx).V(2).Info("sharding: assigning object failed; retrying", "object", ref.key, "err", err)
		c.queue.AddRateLimited(ref)
		return true
	}
	c.queue.Forget(ref)
	return true
}

// sync puts one object where the ring wants it.
func (c *coordinator) sync(ctx context.Context, ref objectRef) error {
	logger := klog.FromContext(ctx)
	item, exists, err := c.stores[ref.resource].GetByKey(ref.key)
	if err != nil || !exists {
		c.mu.Lock()
		delete(c.drainStart, ref)
		delete(c.foreignSeen, ref)
		c.mu.Unlock()
		return err
	}
	obj, err := meta.Accessor(item)
	if err != nil {
		// Not an object with metadata: retrying cannot help, so it is left where it is.
		logger.Error(err, "sharding: cannot place a cached object", "object", ref.key)
		return nil
	}
	res := c.resources[ref.resource]
	labels := obj.GetLabels()
	shardKey, drainKey := ShardLabel(c.r.cfg.Ring), DrainLabel(c.r.cfg.Ring)
	strip := map[string]any{}
	for k, v := range labels {
		if !strings.HasPrefix(k, ShardLabelPrefix) || k == shardKey {
			continue
		}
		other := strings.TrimPrefix(k, ShardLabelPrefix)
		live, err := c.foreignRingLive(ctx, other)
		if err != nil {
			return err
		}
		if live {
			c.mu.Lock()
			seen := c.foreignSeen[ref]
			c.foreignSeen[ref] = k
			c.mu.Unlock()
			if seen != k {
				logger.Error(nil, "sharding: object belongs to another live ring; this ring leaves it alone (do all replicas use one ring name?)",
					"resource", res.Resource.Resource, "object", ref.key, "otherRing", other, "owner", v)
			}
			return nil
		}
		strip[k], strip[DrainLabelPrefix+other] = nil, nil
	}
	if len(strip) > 0 {
		// The other ring has no live member: take the object, or it would have no owner at all.
		desired := c.r.observer.currentRing().Owner(HashKey(res.groupKind(), obj, c.mains))
		if desired == "" {
			return nil
		}
		strip[shardKey], strip[drainKey] = desired, nil
		logger.Info("sharding: taking an object whose ring has no live member", "resource", res.Resource.Resource, "object", ref.key, "to", desired)
		return c.patch(ctx, res, obj, strip)
	}
	current, drain := labels[shardKey], labels[drainKey]
	desired := c.r.observer.currentRing().Owner(HashKey(res.groupKind(), obj, c.mains))
	if desired == "" {
		return nil // no live member; nobody to assign to
	}
	if drain == "" && current != "" {
		c.mu.Lock()
		start, draining := c.drainStart[ref]
		delete(c.drainStart, ref)
		c.mu.Unlock()
		if draining {
			c.r.metrics.drainDuration.Observe(c.r.clock.Since(start).Seconds())
		}
	}
	if current == desired {
		if drain == "" {
			return nil
		}
		return c.patch(ctx, res, obj, map[string]any{drainKey: nil}) // the owner did not hand it over yet
	}
	if current != "" {
		switch claim, _ := c.r.observer.claim(current); claim {
		case claimLive:
			if drain == desired {
				return nil
			}
			if err := c.patch(ctx, res, obj, map[string]any{drainKey: desired}); err != nil {
				return err
			}
			c.mu.Lock()
			if _, ok := c.drainStart[ref]; !ok {
				c.drainStart[ref] = c.r.clock.Now()
			}
			c.mu.Unlock()
			c.r.metrics.drains.Inc()
			return nil
		case claimExpired:
			return nil // fenceExpired fences it first, then the object moves
		case claimNone:
			if wait := c.r.observer.claimGrace(current); wait > 0 {
				// The replicas claim a departed member's objects themselves; patching the same
				// objects at once would only load the API server during a failover.
				c.queue.AddAfter(ref, wait)
				return nil
			}
		}
	}
	if err := c.patch(ctx, res, obj, map[string]any{shardKey: desired, drainKey: nil}); err != nil {
		return err
	}
	c.r.metrics.moves.Inc()
	logger.V(3).Info("sharding: assigned object", "resource", res.Resource.Resource, "object", ref.key, "from", current, "to", desired)
	return nil
}

func (c *coordinator) patch(ctx context.Context, res Resource, obj metav1.Object, labels map[string]any) error {
	_, err := c.r.client(res, obj.GetNamespace()).Patch(ctx, obj.GetName(), types.MergePatchType,
		labelPatch(obj.GetResourceVersion(), labels), metav1.PatchOptions{})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil // the informer brings the newer object
	}
	return err
}

// foreignRingLive reports whether ring has a member whose Lease changed within a Lease duration, as
// observed on this replica's clock; a ring first seen counts as live for a Lease duration.
func (c *coordinator) foreignRingLive(ctx context.Context, ring string) (bool, error) {
	c.mu.Lock()
	f := c.foreign[ring]
	if f == nil {
		f = &foreignRing{leases: map[string]*memberState{}}
		c.foreign[ring] = f
	}
	now := c.r.clock.Now()
	if !f.checked.IsZero() && now.Sub(f.checked) < c.r.cfg.RetryPeriod {
		live := f.live
		c.mu.Unlock()
		return live, nil
	}
	c.mu.Unlock()
	list, err := c.r.cfg.Leases.List(ctx, metav1.ListOptions{LabelSelector: RingLabel + "=" + ring})
	if err != nil {
		return false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	live := false
	seen := map[string]bool{}
	for i := range list.Items {
		l := &list.Items[i]
		seen[l.Name] = true
		s := f.leases[l.Name]
		if s == nil || s.lease.ResourceVersion != l.ResourceVersion {
			s = &memberState{lease: l.DeepCopy(), observed: now}
			f.leases[l.Name] = s
		}
		if holdsMember(s.lease) && now.Before(s.observed.Add(leaseDuration(s.lease, c.r.cfg.LeaseDuration))) {
			live = true
		}
	}
	for name := range f.leases {
		if !seen[name] {
			delete(f.leases, name)
		}
	}
	f.checked, f.live = now, live
	return live, nil
}
