package discovery

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"sync"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// Accept headers for discovery: aggregated (v2) first, then the legacy per-group documents.
const (
	AcceptV1 = runtime.ContentTypeJSON
	AcceptV2 = runtime.ContentTypeJSON + ";g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
	// AcceptV2NoPeer asks for the "nopeer" profile of aggregated discovery: only what the API
	// server answering serves itself, not its peers (mixed-version clusters).
	AcceptV2NoPeer = AcceptV2 + ";profile=nopeer"

	acceptDiscoveryFormats = AcceptV2 + "," + AcceptV1
)

// Discovery uses higher client-side limits than ordinary clients, as it fans out one request per group version.
const (
	defaultDiscoveryQPS   = 50
	defaultDiscoveryBurst = 300
)

// DiscoveryClient talks to the discovery endpoints of an API server.
type DiscoveryClient struct {
	restClient rest.Interface
	// LegacyPrefix is the path of the core group, "/api".
	LegacyPrefix string
	// UseLegacyDiscovery turns off aggregated discovery.
	UseLegacyDiscovery bool
	// NoPeerDiscovery asks for the "nopeer" profile of aggregated discovery (AcceptV2NoPeer), so
	// the answer lists what the API server answering serves itself.
	NoPeerDiscovery bool
}

var (
	_ DiscoveryInterface            = (*DiscoveryClient)(nil)
	_ DiscoveryInterfaceWithContext = (*DiscoveryClient)(nil)
)

// NewDiscoveryClient returns a DiscoveryClient using c, which must not be bound to a group version path.
func NewDiscoveryClient(c rest.Interface) *DiscoveryClient {
	return &DiscoveryClient{restClient: c, LegacyPrefix: "/api"}
}

// NewDiscoveryClientForConfig returns a DiscoveryClient for config.
func NewDiscoveryClientForConfig(c *rest.Config) (*DiscoveryClient, error) {
	config := discoveryConfig(c)
	httpClient, err := rest.HTTPClientFor(config)
	if err != nil {
		return nil, err
	}
	return NewDiscoveryClientForConfigAndClient(c, httpClient)
}

// NewDiscoveryClientForConfigAndClient returns a DiscoveryClient for config that sends requests with httpClient.
func NewDiscoveryClientForConfigAndClient(c *rest.Config, httpClient *http.Client) (*DiscoveryClient, error) {
	client, err := rest.UnversionedRESTClientForConfigAndClient(discoveryConfig(c), httpClient)
	if err != nil {
		return nil, err
	}
	return NewDiscoveryClient(client), nil
}

// NewDiscoveryClientForConfigOrDie is NewDiscoveryClientForConfig that panics on a bad config.
func NewDiscoveryClientForConfigOrDie(c *rest.Config) *DiscoveryClient {
	client, err := NewDiscoveryClientForConfig(c)
	if err != nil {
		panic(err)
	}
	return client
}

var discoveryCodecs = func() serializer.CodecFactory {
	scheme := runtime.NewScheme()
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	return serializer.NewCodecFactory(scheme)
}()

func discoveryConfig(c *rest.Config) *rest.Config {
	config := rest.CopyConfig(c)
	config.APIPath = ""
	config.GroupVersion = nil
	if config.NegotiatedSerializer == nil {
		config.NegotiatedSerializer = discoveryCodecs.WithoutConversion()
	}
	if config.QPS == 0 && config.RateLimiter == nil {
		config.QPS = defaultDiscoveryQPS
	}
	if config.Burst == 0 {
		config.Burst = defaultDiscoveryBurst
	}
	return config
}

// RESTClient returns the client used for discovery requests.
func (d *DiscoveryClient) RESTClient() rest.Interface {
	if d == nil {
		return nil
	}
	return d.restClient
}

// WithLegacy returns a copy of the client that uses legacy discovery only.
func (d *DiscoveryClient) WithLegacy() DiscoveryInterface {
	c := *d
	c.UseLegacyDiscovery = true
	return &c
}

// WithLegacyWithContext is WithLegacy for DiscoveryInterfaceWithContext users.
func (d *DiscoveryClient) WithLegacyWithContext(ctx context.Context) DiscoveryInterfaceWithContext {
	c := *d
	c.UseLegacyDiscovery = true
	return &c
}

// getJSON fetches path and returns its body and content type; a 404 or 403 yields a nil body and no error,
// as servers without a group answer that way.
func (d *DiscoveryClient) getJSON(ctx context.Context, path, accept string) ([]byte, string, error) {
	var contentType string
	body, err := d.restClient.Get().AbsPath(path).SetHeader("Accept", accept).Do(ctx).ContentType(&contentType).Raw()
	if err != nil {
		if apierrors.IsNotFound(err) || apierrors.IsForbidden(err) {
			return nil, "", nil
		}
		return nil, "", err
	}
	return body, contentType, nil
}

// isAggregated reports whether contentType is the aggregated discovery v2 document.
func isAggregated(contentType string) bool {
	media, params, err := mime.ParseMediaType(contentType)
	return err == nil && media == runtime.ContentTypeJSON &&
		params["g"] == "apidiscovery.k8s.io" && params["v"] == "v2" && params["as"] == "APIGroupDiscoveryList"
}

// discovered is the result of fetching /api and /apis.
type discovered struct {
	groups *metav1.APIGroupList
	// resources is set only when the server answered with aggregated discovery.
	resources map[schema.GroupVersion]*metav1.APIResourceList
	failed    map[schema.GroupVersion]error
}

// fetchRoots reads /api and /apis, as aggregated documents when offered.
func (d *DiscoveryClient) fetchRoots(ctx context.Context) (*discovered, error) {
	accept := acceptDiscoveryFormats
	switch {
	case d.UseLegacyDiscovery:
		accept = AcceptV1
	case d.NoPeerDiscovery:
		accept = AcceptV2NoPeer + "," + acceptDiscoveryFormats
	}
	out := &discovered{groups: &metav1.APIGroupList{}}
	aggregated := true
	for _, root := range []string{d.LegacyPrefix, "/apis"} {
		body, contentType, err := d.getJSON(ctx, root, accept)
		if err != nil {
			return nil, err
		}
		if body == nil {
			continue
		}
		if isAggregated(contentType) {
			var list apidiscoveryv2.APIGroupDiscoveryList
			if err := json.Unmarshal(body, &list); err != nil {
				return nil, fmt.Errorf("decoding aggregated discovery from %s: %w", root, err)
			}
			out.addAggregated(&list)
			continue
		}
		aggregated = false
		if root == d.LegacyPrefix {
			var versions metav1.APIVersions
			if err := json.Unmarshal(body, &versions); err != nil {
				return nil, fmt.Errorf("decoding discovery from %s: %w", root, err)
			}
			if len(versions.Versions) > 0 {
				out.groups.Groups = append(out.groups.Groups, legacyCoreGroup(versions))
			}
			continue
		}
		var groups metav1.APIGroupList
		if err := json.Unmarshal(body, &groups); err != nil {
			return nil, fmt.Errorf("decoding discovery from %s: %w", root, err)
		}
		out.groups.Groups = append(out.groups.Groups, groups.Groups...)
	}
	if !aggregated {
		out.resources, out.failed = nil, nil
	}
	return out, nil
}

func legacyCoreGroup(v metav1.APIVersions) metav1.APIGroup {
	g := metav1.APIGroup{}
	for _, version := range v.Versions {
		g.Versions = append(g.Versions, metav1.GroupVersionForDiscovery{GroupVersion: version, Version: version})
	}
	g.PreferredVersion = g.Versions[0]
	return g
}

func (out *discovered) addAggregated(list *apidiscoveryv2.APIGroupDiscoveryList) {
	if out.resources == nil {
		out.resources = map[schema.GroupVersion]*metav1.APIResourceList{}
		out.failed = map[schema.GroupVersion]error{}
	}
	for _, ag := range list.Items {
		group := metav1.APIGroup{Name: ag.Name}
		for _, av := range ag.Versions {
			gv := schema.GroupVersion{Group: ag.Name, Version: av.Version}
			group.Versions = append(group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: gv.String(), Version: av.Version})
			if av.Freshness == apidiscoveryv2.DiscoveryFreshnessStale {
				out.failed[gv] = StaleGroupVersionError{gv: gv}
				continue
			}
			out.resources[gv] = convertResources(gv, av.Resources)
		}
		if len(group.Versions) > 0 {
			group.PreferredVersion = group.Versions[0]
			out.groups.Groups = append(out.groups.Groups, group)
		}
	}
}

// convertResources turns aggregated resources into the legacy APIResourceList shape, with subresources
// as "resource/subresource" entries.
func convertResources(gv schema.GroupVersion, in []apidiscoveryv2.APIResourceDiscovery) *metav1.APIResourceList {
	list := &metav1.APIResourceList{GroupVersion: gv.String()}
	for _, r := range in {
		namespaced := r.Scope == apidiscoveryv2.ScopeNamespace
		res := metav1.APIResource{
			Name:         r.Resource,
			SingularName: r.SingularResource,
			Namespaced:   namespaced,
			Verbs:        r.Verbs,
			ShortNames:   r.ShortNames,
			Categories:   r.Categories,
		}
		setKind(&res, gv, r.ResponseKind)
		list.APIResources = append(list.APIResources, res)
		for _, s := range r.Subresources {
			sub := metav1.APIResource{Name: r.Resource + "/" + s.Subresource, Namespaced: namespaced, Verbs: s.Verbs}
			setKind(&sub, gv, s.ResponseKind)
			list.APIResources = append(list.APIResources, sub)
		}
	}
	return list
}

func setKind(res *metav1.APIResource, gv schema.GroupVersion, kind *metav1.GroupVersionKind) {
	if kind == nil {
		return
	}
	res.Kind = kind.Kind
	if kind.Group != gv.Group || kind.Version != gv.Version {
		res.Group, res.Version = kind.Group, kind.Version
	}
}

// ServerGroups returns the supported API groups.
func (d *DiscoveryClient) ServerGroups() (*metav1.APIGroupList, error) {
	return d.ServerGroupsWithContext(context.Background())
}

// ServerGroupsWithContext is ServerGroups honouring ctx.
func (d *DiscoveryClient) ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error) {
	roots, err := d.fetchRoots(ctx)
	if err != nil {
		return nil, err
	}
	return roots.groups, nil
}

// ServerResourcesForGroupVersion returns the resources of groupVersion from its legacy discovery document.
func (d *DiscoveryClient) ServerResourcesForGroupVersion(groupVersion string) (resources *metav1.APIResourceList, err error) {
	return d.ServerResourcesForGroupVersionWithContext(context.Background(), groupVersion)
}

// ServerResourcesForGroupVersionWithContext is ServerResourcesForGroupVersion honouring ctx.
func (d *DiscoveryClient) ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (resources *metav1.APIResourceList, err error) {
	gv, err := schema.ParseGroupVersion(groupVersion)
	if err != nil {
		return nil, err
	}
	path := "/apis/" + groupVersion
	if gv.Group == "" {
		path = d.LegacyPrefix + "/" + gv.Version
	}
	var contentType string
	body, err := d.restClient.Get().AbsPath(path).SetHeader("Accept", AcceptV1).Do(ctx).ContentType(&contentType).Raw()
	if err != nil {
		// A 403 on the core group means the server hides it; report an empty list as client-go does.
		if gv.Group == "" && apierrors.IsForbidden(err) {
			return &metav1.APIResourceList{GroupVersion: groupVersion}, nil
		}
		return nil, err
	}
	list := &metav1.APIResourceList{}
	if err := json.Unmarshal(body, list); err != nil {
		return nil, fmt.Errorf("decoding discovery for %s: %w", groupVersion, err)
	}
	if list.GroupVersion == "" {
		list.GroupVersion = groupVersion
	}
	return list, nil
}

// ServerGroupsAndResources returns all groups and their resources, fetching per group version in parallel
// when aggregated discovery is not available.
func (d *DiscoveryClient) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return d.ServerGroupsAndResourcesWithContext(context.Background())
}

// ServerGroupsAndResourcesWithContext is ServerGroupsAndResources honouring ctx.
func (d *DiscoveryClient) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	roots, err := d.fetchRoots(ctx)
	if err != nil {
		return nil, nil, err
	}
	resources, failed := roots.resources, roots.failed
	if resources == nil {
		resources, failed = fetchGroupVersionResources(ctx, d.ServerResourcesForGroupVersionWithContext, roots.groups)
	}
	return groupsAndResources(roots.groups, resources, failed)
}

// groupsAndResources orders the results like the group list and builds the partial-failure error.
func groupsAndResources(groups *metav1.APIGroupList, resources map[schema.GroupVersion]*metav1.APIResourceList, failed map[schema.GroupVersion]error) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	var outGroups []*metav1.APIGroup
	var outResources []*metav1.APIResourceList
	for i := range groups.Groups {
		g := &groups.Groups[i]
		outGroups = append(outGroups, g)
		for _, v := range g.Versions {
			gv := schema.GroupVersion{Group: g.Name, Version: v.Version}
			if r, ok := resources[gv]; ok {
				outResources = append(outResources, r)
			}
		}
	}
	if len(failed) > 0 {
		return outGroups, outResources, &ErrGroupDiscoveryFailed{Groups: failed}
	}
	return outGroups, outResources, nil
}

// fetchGroupVersionResources fetches the resources of every group version concurrently.
func fetchGroupVersionResources(ctx context.Context, fetch func(context.Context, string) (*metav1.APIResourceList, error), groups *metav1.APIGroupList) (map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error) {
	resources := map[schema.GroupVersion]*metav1.APIResourceList{}
	failed := map[schema.GroupVersion]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			gv := schema.GroupVersion{Group: g.Name, Version: v.Version}
			wg.Go(func() {
				list, err := fetch(ctx, gv.String())
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					failed[gv] = err
					return
				}
				resources[gv] = list
			})
		}
	}
	wg.Wait()
	return resources, failed
}

// ServerPreferredResources returns each resource once, in its most preferred version.
func (d *DiscoveryClient) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return ServerPreferredResources(d)
}

// ServerPreferredResourcesWithContext is ServerPreferredResources honouring ctx.
func (d *DiscoveryClient) ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return preferredResources(d.ServerGroupsAndResourcesWithContext(ctx))
}

// ServerPreferredNamespacedResources returns the preferred namespaced resources.
func (d *DiscoveryClient) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return ServerPreferredNamespacedResources(d)
}

// ServerPreferredNamespacedResourcesWithContext is ServerPreferredNamespacedResources honouring ctx.
func (d *DiscoveryClient) ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	all, err := d.ServerPreferredResourcesWithContext(ctx)
	return namespacedOnly(all), err
}

// ServerGroupsAndResources lists the groups of any discovery client and fetches the resources of each of
// their versions concurrently, for clients (such as caches) that answer per group version. Partial
// failures return what was found together with an *ErrGroupDiscoveryFailed.
func ServerGroupsAndResources(d DiscoveryInterface) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	groups, err := d.ServerGroups()
	if err != nil {
		return nil, nil, err
	}
	resources, failed := fetchGroupVersionResources(context.Background(), func(_ context.Context, gv string) (*metav1.APIResourceList, error) {
		return d.ServerResourcesForGroupVersion(gv)
	}, groups)
	return groupsAndResources(groups, resources, failed)
}

// ServerPreferredResources computes the preferred resources of any discovery client. Partial failures
// return the resources found together with an *ErrGroupDiscoveryFailed.
func ServerPreferredResources(d DiscoveryInterface) ([]*metav1.APIResourceList, error) {
	return preferredResources(d.ServerGroupsAndResources())
}

func preferredResources(groups []*metav1.APIGroup, lists []*metav1.APIResourceList, err error) ([]*metav1.APIResourceList, error) {
	if err != nil && !IsGroupDiscoveryFailedError(err) {
		return nil, err
	}
	byGV := map[string]*metav1.APIResourceList{}
	for _, l := range lists {
		byGV[l.GroupVersion] = l
	}
	chosen := map[schema.GroupResource]string{}
	kept := map[string][]metav1.APIResource{}
	var order []string
	for _, g := range groups {
		for _, v := range g.Versions {
			list, ok := byGV[v.GroupVersion]
			if !ok {
				continue
			}
			for _, r := range list.APIResources {
				if strings.Contains(r.Name, "/") {
					continue
				}
				gr := schema.GroupResource{Group: g.Name, Resource: r.Name}
				if prev, seen := chosen[gr]; seen {
					if v.Version != g.PreferredVersion.Version {
						continue
					}
					// The preferred version wins over a version listed before it.
					prevGV := schema.GroupVersion{Group: g.Name, Version: prev}.String()
					kept[prevGV] = removeResource(kept[prevGV], r.Name)
				}
				chosen[gr] = v.Version
				key := v.GroupVersion
				if _, ok := kept[key]; !ok {
					order = append(order, key)
				}
				kept[key] = append(kept[key], r)
			}
		}
	}
	var out []*metav1.APIResourceList
	for _, gv := range order {
		if len(kept[gv]) > 0 {
			out = append(out, &metav1.APIResourceList{GroupVersion: gv, APIResources: kept[gv]})
		}
	}
	return out, err
}

func removeResource(list []metav1.APIResource, name string) []metav1.APIResource {
	out := list[:0]
	for _, r := range list {
		if r.Name != name {
			out = append(out, r)
		}
	}
	return out
}

// ServerPreferredNamespacedResources is ServerPreferredResources restricted to namespaced resources.
func ServerPreferredNamespacedResources(d DiscoveryInterface) ([]*metav1.APIResourceList, error) {
	all, err := ServerPreferredResources(d)
	return namespacedOnly(all), err
}

func namespacedOnly(lists []*metav1.APIResourceList) []*metav1.APIResourceList {
	return FilteredBy(ResourcePredicateFunc(func(_ string, r *metav1.APIResource) bool { return r.Namespaced }), lists)
}

// ResourcePredicate selects API resources.
type ResourcePredicate interface {
	// Match reports whether the resource of groupVersion is selected.
	Match(groupVersion string, r *metav1.APIResource) bool
}

// ResourcePredicateFunc is a function ResourcePredicate.
type ResourcePredicateFunc func(groupVersion string, r *metav1.APIResource) bool

// Match calls f.
func (f ResourcePredicateFunc) Match(groupVersion string, r *metav1.APIResource) bool {
	return f(groupVersion, r)
}

// SupportsAllVerbs selects resources that support every verb in Verbs.
type SupportsAllVerbs struct {
	Verbs []string
}

// Match reports whether r supports all of p.Verbs.
func (p SupportsAllVerbs) Match(_ string, r *metav1.APIResource) bool {
	for _, v := range p.Verbs {
		if !contains(r.Verbs, v) {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FilteredBy returns the resources of lists matching pred, dropping empty lists.
func FilteredBy(pred ResourcePredicate, lists []*metav1.APIResourceList) []*metav1.APIResourceList {
	var out []*metav1.APIResourceList
	for _, l := range lists {
		filtered := &metav1.APIResourceList{GroupVersion: l.GroupVersion}
		for i := range l.APIResources {
			if pred.Match(l.GroupVersion, &l.APIResources[i]) {
				filtered.APIResources = append(filtered.APIResources, l.APIResources[i])
			}
		}
		if len(filtered.APIResources) > 0 {
			out = append(out, filtered)
		}
	}
	return out
}

// GroupVersionResources returns the set of group version resources in lists.
func GroupVersionResources(lists []*metav1.APIResourceList) (map[schema.GroupVersionResource]struct{}, error) {
	out := map[schema.GroupVersionResource]struct{}{}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			return nil, err
		}
		for _, r := range l.APIResources {
			out[gv.WithResource(r.Name)] = struct{}{}
		}
	}
	return out, nil
}

// ServerVersion returns the server's /version information.
func (d *DiscoveryClient) ServerVersion() (*version.Info, error) {
	return d.ServerVersionWithContext(context.Background())
}

// ServerVersionWithContext is ServerVersion honouring ctx.
func (d *DiscoveryClient) ServerVersionWithContext(ctx context.Context) (*version.Info, error) {
	body, err := d.restClient.Get().AbsPath("/version").Do(ctx).Raw()
	if err != nil {
		return nil, err
	}
	var info version.Info
	if err := json.Unmarshal(body, &info); err != nil {
		return nil, fmt.Errorf("unable to parse the server version: %w", err)
	}
	return &info, nil
}

var _ DiscoveryInterfaces = &DiscoveryClient{}
