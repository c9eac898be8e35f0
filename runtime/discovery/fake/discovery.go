// Package fake provides a discovery client for tests that reports the resources listed in a
// testing.Fake, which generated fake clientsets fill with the resources they serve.
package fake

import (
	"context"
	"fmt"
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/runtime/testing"
)

// DefaultServerVersion is what ServerVersion reports when FakedServerVersion is nil.
var DefaultServerVersion = version.Info{Major: "1", Minor: "37", GitVersion: "v1.37.2", Platform: "fake"}

// FakeDiscovery implements discovery.DiscoveryInterface from Fake.Resources. Every call is recorded
// as a "get" action on the pseudo-resource "group", "resource" or "version", so tests can assert on
// discovery calls and inject errors with a reactor.
type FakeDiscovery struct {
	*testing.Fake
	// FakedServerVersion, when set, is what ServerVersion returns.
	FakedServerVersion *version.Info
}

var _ discovery.DiscoveryInterface = &FakeDiscovery{}

// invoke records a discovery call and returns the error a reactor chose for it, if any.
func (c *FakeDiscovery) invoke(what string) error {
	_, err := c.Invokes(testing.ActionImpl{Verb: "get", Resource: schema.GroupVersionResource{Resource: what}}, nil)
	return err
}

// ServerGroups returns the groups of Fake.Resources in the order they first appear; each group's
// first listed version is its preferred one.
func (c *FakeDiscovery) ServerGroups() (*metav1.APIGroupList, error) {
	if err := c.invoke("group"); err != nil {
		return nil, err
	}
	list := &metav1.APIGroupList{}
	index := map[string]int{}
	for _, res := range c.Resources {
		gv, err := schema.ParseGroupVersion(res.GroupVersion)
		if err != nil {
			return nil, err
		}
		v := metav1.GroupVersionForDiscovery{GroupVersion: res.GroupVersion, Version: gv.Version}
		i, ok := index[gv.Group]
		if !ok {
			i = len(list.Groups)
			index[gv.Group] = i
			list.Groups = append(list.Groups, metav1.APIGroup{Name: gv.Group, PreferredVersion: v})
		}
		list.Groups[i].Versions = append(list.Groups[i].Versions, v)
	}
	return list, nil
}

// ServerResourcesForGroupVersion returns the resource list of the group version, or NotFound.
func (c *FakeDiscovery) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	if err := c.invoke("resource"); err != nil {
		return nil, err
	}
	for _, res := range c.Resources {
		if res.GroupVersion == groupVersion {
			return res, nil
		}
	}
	return nil, &apierrors.StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusNotFound,
		Reason:  metav1.StatusReasonNotFound,
		Message: fmt.Sprintf("the server could not find the requested resource, GroupVersion %q not found", groupVersion),
	}}
}

// ServerGroupsAndResources returns the groups and all resource lists.
func (c *FakeDiscovery) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	groups, err := c.ServerGroups()
	if err != nil {
		return nil, nil, err
	}
	out := make([]*metav1.APIGroup, len(groups.Groups))
	for i := range groups.Groups {
		out[i] = &groups.Groups[i]
	}
	if err := c.invoke("resource"); err != nil {
		return out, c.Resources, err
	}
	return out, c.Resources, nil
}

// ServerPreferredResources returns each resource once, in its group's preferred version.
func (c *FakeDiscovery) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredResources(c)
}

// ServerPreferredNamespacedResources returns the preferred namespaced resources.
func (c *FakeDiscovery) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredNamespacedResources(c)
}

// ServerVersion returns FakedServerVersion, or DefaultServerVersion when it is nil.
func (c *FakeDiscovery) ServerVersion() (*version.Info, error) {
	if err := c.invoke("version"); err != nil {
		return nil, err
	}
	if c.FakedServerVersion != nil {
		return c.FakedServerVersion, nil
	}
	v := DefaultServerVersion
	return &v, nil
}

// RESTClient returns nil: the fake talks to no server.
func (c *FakeDiscovery) RESTClient() rest.Interface { return nil }

// WithLegacy returns the client itself: the fake has one source of answers.
func (c *FakeDiscovery) WithLegacy() discovery.DiscoveryInterface { return c }

var _ discovery.DiscoveryInterfaces = &FakeDiscovery{}

// ServerGroupsWithContext is ServerGroups; the fake does not block, so ctx is unused.
func (c *FakeDiscovery) ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error) {
	return c.ServerGroups()
}

// ServerResourcesForGroupVersionWithContext is ServerResourcesForGroupVersion.
func (c *FakeDiscovery) ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error) {
	return c.ServerResourcesForGroupVersion(groupVersion)
}

// ServerGroupsAndResourcesWithContext is ServerGroupsAndResources.
func (c *FakeDiscovery) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return c.ServerGroupsAndResources()
}

// ServerPreferredResourcesWithContext is ServerPreferredResources.
func (c *FakeDiscovery) ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return c.ServerPreferredResources()
}

// ServerPreferredNamespacedResourcesWithContext is ServerPreferredNamespacedResources.
func (c *FakeDiscovery) ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return c.ServerPreferredNamespacedResources()
}

// ServerVersionWithContext is ServerVersion.
func (c *FakeDiscovery) ServerVersionWithContext(ctx context.Context) (*version.Info, error) {
	return c.ServerVersion()
}

// WithLegacyWithContext returns the client itself.
func (c *FakeDiscovery) WithLegacyWithContext(ctx context.Context) discovery.DiscoveryInterfaceWithContext {
	return c
}
