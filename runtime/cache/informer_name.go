package cache

import (
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// InformerName reserves a name under which a set of informers (typically one factory's) publish
// metrics, each identified by the name and its resource. A name is unique in the process until
// released, so two factories cannot publish under one name, and within a name each resource
// publishes once.
type InformerName struct {
	name string

	mu        sync.Mutex
	released  bool
	resources map[schema.GroupVersionResource]bool
}

// informerNames are the names reserved and not yet released.
var informerNames = struct {
	sync.Mutex
	taken map[string]*InformerName
}{taken: map[string]*InformerName{}}

// NewInformerName reserves name; it fails if name is empty or already reserved.
func NewInformerName(name string) (*InformerName, error) {
	if name == "" {
		return nil, fmt.Errorf("an informer name must not be empty")
	}
	informerNames.Lock()
	defer informerNames.Unlock()
	if _, taken := informerNames.taken[name]; taken {
		return nil, fmt.Errorf("informer name %q is already reserved", name)
	}
	n := &InformerName{name: name, resources: map[schema.GroupVersionResource]bool{}}
	informerNames.taken[name] = n
	return n, nil
}

// Name returns the reserved name; "" for a nil InformerName.
func (n *InformerName) Name() string {
	if n == nil {
		return ""
	}
	return n.name
}

// WithResource registers an informer of gvr under the name. The result is Reserved for the first
// registration of gvr while the name is held; a second informer of the same resource publishes no
// metrics rather than mixing its figures with the first one's.
func (n *InformerName) WithResource(gvr schema.GroupVersionResource) InformerNameAndResource {
	if n == nil {
		return InformerNameAndResource{gvr: gvr}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	first := !n.released && !n.resources[gvr]
	if first {
		n.resources[gvr] = true
	}
	return InformerNameAndResource{owner: n, gvr: gvr, first: first}
}

// Release frees the name for reuse; the registrations made under it stop being Reserved.
func (n *InformerName) Release() {
	if n == nil {
		return
	}
	n.mu.Lock()
	n.released = true
	n.resources = map[schema.GroupVersionResource]bool{}
	n.mu.Unlock()
	informerNames.Lock()
	defer informerNames.Unlock()
	if informerNames.taken[n.name] == n {
		delete(informerNames.taken, n.name)
	}
}

// InformerNameAndResource is one informer's registration under an InformerName.
type InformerNameAndResource struct {
	owner *InformerName
	gvr   schema.GroupVersionResource
	first bool
}

// Name returns the informer name; "" without one.
func (r InformerNameAndResource) Name() string { return r.owner.Name() }

// GroupVersionResource returns the informer's resource.
func (r InformerNameAndResource) GroupVersionResource() schema.GroupVersionResource { return r.gvr }

// Reserved reports whether this informer may publish metrics: it was the first of its resource
// under the name, and the name has not been released.
func (r InformerNameAndResource) Reserved() bool {
	if r.owner == nil || !r.first {
		return false
	}
	r.owner.mu.Lock()
	defer r.owner.mu.Unlock()
	return !r.owner.released
}
