// Package memory caches discovery answers in memory until they are invalidated. Unlike client-go's
// memory cache, its data stops counting as fresh after FreshnessWindow, so a RESTMapper miss for a kind
// added since (a new CRD) triggers one refetch instead of failing until someone calls Invalidate.
package memory

import (
	"errors"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/rest"
)

// FreshnessWindow is how long after filling the cache Fresh reports true. Unlike client-go's memory cache,
// whose data stays "fresh" forever, a lookup miss in older data (say, for a CRD installed since) is then
// worth one refetch, which is what DeferredDiscoveryRESTMapper does.
const FreshnessWindow = 5 * time.Second

// memCacheClient fetches all groups and resources once and answers from memory until Invalidate.
type memCacheClient struct {
	delegate discovery.DiscoveryInterface
	now      func() time.Time

	mu        sync.Mutex
	valid     bool
	filledAt  time.Time
	groups    *metav1.APIGroupList
	resources map[schema.GroupVersion]*metav1.APIResourceList
	failed    map[schema.GroupVersion]error
}

var _ discovery.CachedDiscoveryInterface = (*memCacheClient)(nil)

// NewMemCacheClient returns a CachedDiscoveryInterface that caches delegate's answers in memory.
func NewMemCacheClient(delegate discovery.DiscoveryInterface) discovery.CachedDiscoveryInterface {
	return &memCacheClient{delegate: delegate, now: time.Now}
}

// refreshLocked fills the cache if it is not valid.
func (c *memCacheClient) refreshLocked() error {
	if c.valid {
		return nil
	}
	groups, lists, err := c.delegate.ServerGroupsAndResources()
	failed := map[schema.GroupVersion]error{}
	if err != nil {
		var partial *discovery.ErrGroupDiscoveryFailed
		if !errors.As(err, &partial) {
			return err
		}
		for gv, e := range partial.Groups {
			failed[gv] = e
		}
	}
	c.groups = &metav1.APIGroupList{}
	for _, g := range groups {
		c.groups.Groups = append(c.groups.Groups, *g)
	}
	c.resources = map[schema.GroupVersion]*metav1.APIResourceList{}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		c.resources[gv] = l
	}
	c.failed = failed
	c.valid = true
	c.filledAt = c.now()
	return nil
}

// ServerGroups returns the cached group list.
func (c *memCacheClient) ServerGroups() (*metav1.APIGroupList, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.refreshLocked(); err != nil {
		return nil, err
	}
	return c.groups, nil
}

// ServerResourcesForGroupVersion returns the cached resources of groupVersion, retrying a group version
// that failed before.
func (c *memCacheClient) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	gv, err := schema.ParseGroupVersion(groupVersion)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.refreshLocked(); err != nil {
		return nil, err
	}
	if l, ok := c.resources[gv]; ok {
		return l, nil
	}
	l, err := c.delegate.ServerResourcesForGroupVersion(groupVersion)
	if err != nil {
		c.failed[gv] = err
		return nil, err
	}
	delete(c.failed, gv)
	c.resources[gv] = l
	return l, nil
}

// ServerGroupsAndResources returns the cached groups and resources.
func (c *memCacheClient) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.refreshLocked(); err != nil {
		return nil, nil, err
	}
	var groups []*metav1.APIGroup
	var lists []*metav1.APIResourceList
	for i := range c.groups.Groups {
		g := &c.groups.Groups[i]
		groups = append(groups, g)
		for _, v := range g.Versions {
			if l, ok := c.resources[schema.GroupVersion{Group: g.Name, Version: v.Version}]; ok {
				lists = append(lists, l)
			}
		}
	}
	if len(c.failed) > 0 {
		failed := make(map[schema.GroupVersion]error, len(c.failed))
		for gv, err := range c.failed {
			failed[gv] = err
		}
		return groups, lists, &discovery.ErrGroupDiscoveryFailed{Groups: failed}
	}
	return groups, lists, nil
}

// ServerPreferredResources returns the preferred resources from the cache.
func (c *memCacheClient) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredResources(c)
}

// ServerPreferredNamespacedResources returns the preferred namespaced resources from the cache.
func (c *memCacheClient) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredNamespacedResources(c)
}

// ServerVersion asks the server; versions are not cached.
func (c *memCacheClient) ServerVersion() (*version.Info, error) { return c.delegate.ServerVersion() }

// RESTClient returns the delegate's REST client.
func (c *memCacheClient) RESTClient() rest.Interface { return c.delegate.RESTClient() }

// WithLegacy returns a new cache over the delegate's legacy-only client.
func (c *memCacheClient) WithLegacy() discovery.DiscoveryInterface {
	return NewMemCacheClient(c.delegate.WithLegacy())
}

// Fresh reports whether the cache was filled within the last FreshnessWindow, so a miss is not worth a refetch.
func (c *memCacheClient) Fresh() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.valid && c.now().Sub(c.filledAt) < FreshnessWindow
}

// Invalidate drops the cache; the next call fetches from the server.
func (c *memCacheClient) Invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.valid = false
	c.groups, c.resources, c.failed = nil, nil, nil
}
