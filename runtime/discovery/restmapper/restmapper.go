// Package restmapper builds a meta.RESTMapper from discovery information, so code can map kinds to
// resources (and back) for whatever the server serves, including CRDs.
package restmapper

import (
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/discovery"
)

// APIGroupResources is one API group with the resources of each of its versions.
type APIGroupResources struct {
	Group metav1.APIGroup
	// VersionedResources maps a version to its resources.
	VersionedResources map[string][]metav1.APIResource
}

// GetAPIGroupResources fetches all groups and resources from d. Group versions that fail are left out;
// the partial-failure error is returned alongside the results.
func GetAPIGroupResources(d discovery.DiscoveryInterface) ([]*APIGroupResources, error) {
	groups, lists, err := d.ServerGroupsAndResources()
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		return nil, err
	}
	byGV := map[string]*metav1.APIResourceList{}
	for _, l := range lists {
		byGV[l.GroupVersion] = l
	}
	out := make([]*APIGroupResources, 0, len(groups))
	for _, g := range groups {
		agr := &APIGroupResources{Group: *g, VersionedResources: map[string][]metav1.APIResource{}}
		for _, v := range g.Versions {
			if l, ok := byGV[v.GroupVersion]; ok {
				agr.VersionedResources[v.Version] = l.APIResources
			}
		}
		out = append(out, agr)
	}
	return out, err
}

// NewDiscoveryRESTMapper returns a RESTMapper for groupResources. Groups earlier in the list win ties,
// and within a group the preferred version wins.
func NewDiscoveryRESTMapper(groupResources []*APIGroupResources) meta.RESTMapper {
	var mappers meta.MultiRESTMapper
	var resourcePriority []schema.GroupVersionResource
	var kindPriority []schema.GroupVersionKind
	prioritize := func(gv schema.GroupVersion) {
		resourcePriority = append(resourcePriority, gv.WithResource(meta.AnyResource))
		kindPriority = append(kindPriority, gv.WithKind(meta.AnyKind))
	}
	for _, g := range groupResources {
		preferred := g.Group.PreferredVersion.Version
		if _, ok := g.VersionedResources[preferred]; ok && preferred != "" {
			prioritize(schema.GroupVersion{Group: g.Group.Name, Version: preferred})
		}
		for _, v := range g.Group.Versions {
			resources, ok := g.VersionedResources[v.Version]
			if !ok {
				continue
			}
			gv := schema.GroupVersion{Group: g.Group.Name, Version: v.Version}
			if v.Version != preferred {
				prioritize(gv)
			}
			mappers = append(mappers, versionMapper(gv, resources))
		}
	}
	for _, g := range groupResources {
		prioritize(schema.GroupVersion{Group: g.Group.Name, Version: meta.AnyVersion})
	}
	return meta.PriorityRESTMapper{Delegate: mappers, ResourcePriority: resourcePriority, KindPriority: kindPriority}
}

// versionMapper maps the kinds and resources of one group version; subresources are not mapped.
func versionMapper(gv schema.GroupVersion, resources []metav1.APIResource) meta.RESTMapper {
	m := meta.NewDefaultRESTMapper([]schema.GroupVersion{gv})
	for _, r := range resources {
		if strings.Contains(r.Name, "/") {
			continue
		}
		scope := meta.RESTScopeRoot
		if r.Namespaced {
			scope = meta.RESTScopeNamespace
		}
		plural := gv.WithResource(r.Name)
		singular := gv.WithResource(r.SingularName)
		if r.SingularName == "" {
			// Older servers do not report singular names; derive one from the kind.
			_, singular = meta.UnsafeGuessKindToResource(gv.WithKind(r.Kind))
		}
		m.AddSpecific(gv.WithKind(strings.ToLower(r.Kind)), plural, singular, scope)
		m.AddSpecific(gv.WithKind(r.Kind), plural, singular, scope)
		m.Add(gv.WithKind(r.Kind+"List"), scope)
	}
	m.Add(gv.WithKind("List"), meta.RESTScopeRoot)
	return m
}

// DeferredDiscoveryRESTMapper builds its mapping from cached discovery on first use and rebuilds it
// (once, after invalidating the cache) when a lookup finds no match in stale data, so new CRDs are found.
type DeferredDiscoveryRESTMapper struct {
	mu       sync.Mutex
	delegate meta.RESTMapper
	cl       discovery.CachedDiscoveryInterface
}

var _ meta.ResettableRESTMapper = (*DeferredDiscoveryRESTMapper)(nil)

// NewDeferredDiscoveryRESTMapper returns a lazily built RESTMapper over cl.
func NewDeferredDiscoveryRESTMapper(cl discovery.CachedDiscoveryInterface) *DeferredDiscoveryRESTMapper {
	return &DeferredDiscoveryRESTMapper{cl: cl}
}

func (d *DeferredDiscoveryRESTMapper) getDelegate() (meta.RESTMapper, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.delegate != nil {
		return d.delegate, nil
	}
	groups, err := GetAPIGroupResources(d.cl)
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		return nil, err
	}
	d.delegate = NewDiscoveryRESTMapper(groups)
	return d.delegate, nil
}

// Reset invalidates the discovery cache and forgets the mapping.
func (d *DeferredDiscoveryRESTMapper) Reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cl.Invalidate()
	d.delegate = nil
}

// lookup runs fn against the mapping, retrying once with fresh discovery after a no-match error.
func lookup[T any](d *DeferredDiscoveryRESTMapper, fn func(meta.RESTMapper) (T, error)) (T, error) {
	m, err := d.getDelegate()
	if err != nil {
		var zero T
		return zero, err
	}
	out, err := fn(m)
	if err != nil && meta.IsNoMatchError(err) && !d.cl.Fresh() {
		d.Reset()
		if m, err = d.getDelegate(); err != nil {
			var zero T
			return zero, err
		}
		return fn(m)
	}
	return out, err
}

// KindFor returns the kind for a (partial) resource.
func (d *DeferredDiscoveryRESTMapper) KindFor(resource schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	return lookup(d, func(m meta.RESTMapper) (schema.GroupVersionKind, error) { return m.KindFor(resource) })
}

// KindsFor returns all kinds matching a (partial) resource, in priority order.
func (d *DeferredDiscoveryRESTMapper) KindsFor(resource schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	return lookup(d, func(m meta.RESTMapper) ([]schema.GroupVersionKind, error) { return m.KindsFor(resource) })
}

// ResourceFor returns the resource for a (partial) resource.
func (d *DeferredDiscoveryRESTMapper) ResourceFor(input schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	return lookup(d, func(m meta.RESTMapper) (schema.GroupVersionResource, error) { return m.ResourceFor(input) })
}

// ResourcesFor returns all resources matching a (partial) resource, in priority order.
func (d *DeferredDiscoveryRESTMapper) ResourcesFor(input schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	return lookup(d, func(m meta.RESTMapper) ([]schema.GroupVersionResource, error) { return m.ResourcesFor(input) })
}

// RESTMapping returns the mapping for a group kind, in the first of versions that has it (or the preferred one).
func (d *DeferredDiscoveryRESTMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	return lookup(d, func(m meta.RESTMapper) (*meta.RESTMapping, error) { return m.RESTMapping(gk, versions...) })
}

// RESTMappings returns all mappings for a group kind.
func (d *DeferredDiscoveryRESTMapper) RESTMappings(gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	return lookup(d, func(m meta.RESTMapper) ([]*meta.RESTMapping, error) { return m.RESTMappings(gk, versions...) })
}

// ResourceSingularizer returns the singular name of a resource.
func (d *DeferredDiscoveryRESTMapper) ResourceSingularizer(resource string) (string, error) {
	return lookup(d, func(m meta.RESTMapper) (string, error) { return m.ResourceSingularizer(resource) })
}
