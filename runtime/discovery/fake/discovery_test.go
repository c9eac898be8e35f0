package fake_test

import (
	"context"
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/discovery/fake"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

func newDiscovery() *fake.FakeDiscovery {
	f := &ktesting.Fake{Resources: []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{
			{Name: "pods", Namespaced: true, Kind: "Pod"},
			{Name: "pods/status", Namespaced: true, Kind: "Pod"},
			{Name: "nodes", Kind: "Node"},
		}},
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{{Name: "deployments", Namespaced: true, Kind: "Deployment"}}},
		{GroupVersion: "apps/v1beta1", APIResources: []metav1.APIResource{
			{Name: "deployments", Namespaced: true, Kind: "Deployment"},
			{Name: "controllerrevisions", Namespaced: true, Kind: "ControllerRevision"},
		}},
	}}
	return &fake.FakeDiscovery{Fake: f}
}

func TestServerGroupsInOrderWithPreferredVersion(t *testing.T) {
	d := newDiscovery()
	groups, err := d.ServerGroups()
	if err != nil {
		t.Fatal(err)
	}
	if len(groups.Groups) != 2 || groups.Groups[0].Name != "" || groups.Groups[1].Name != "apps" {
		t.Fatalf("groups = %+v", groups.Groups)
	}
	apps := groups.Groups[1]
	if apps.PreferredVersion.Version != "v1" || len(apps.Versions) != 2 || apps.Versions[1].GroupVersion != "apps/v1beta1" {
		t.Fatalf("apps = %+v", apps)
	}
	if a := d.Actions(); len(a) != 1 || !a[0].Matches("get", "group") {
		t.Fatalf("actions = %v", a)
	}
}

func TestServerResourcesForGroupVersion(t *testing.T) {
	d := newDiscovery()
	l, err := d.ServerResourcesForGroupVersion("apps/v1")
	if err != nil || len(l.APIResources) != 1 {
		t.Fatalf("%v %v", l, err)
	}
	_, err = d.ServerResourcesForGroupVersion("batch/v1")
	if !apierrors.IsNotFound(err) {
		t.Fatalf("missing group version: %v", err)
	}
}

func TestServerGroupsAndPreferredResources(t *testing.T) {
	d := newDiscovery()
	groups, lists, err := d.ServerGroupsAndResources()
	if err != nil || len(groups) != 2 || len(lists) != 3 {
		t.Fatalf("%v %v %v", groups, lists, err)
	}
	preferred, err := d.ServerPreferredResources()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, l := range preferred {
		for _, r := range l.APIResources {
			got[l.GroupVersion] = append(got[l.GroupVersion], r.Name)
		}
	}
	if len(got["v1"]) != 2 || len(got["apps/v1"]) != 1 || len(got["apps/v1beta1"]) != 1 || got["apps/v1beta1"][0] != "controllerrevisions" {
		t.Fatalf("preferred = %v", got)
	}
	namespaced, err := d.ServerPreferredNamespacedResources()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range namespaced {
		for _, r := range l.APIResources {
			if r.Name == "nodes" {
				t.Fatal("cluster-scoped nodes among namespaced resources")
			}
		}
	}
}

func TestServerVersionAndInjectedErrors(t *testing.T) {
	d := newDiscovery()
	v, err := d.ServerVersion()
	if err != nil || v.GitVersion != fake.DefaultServerVersion.GitVersion {
		t.Fatalf("%v %v", v, err)
	}
	d.FakedServerVersion = &version.Info{GitVersion: "v9.9.9"}
	if v, _ := d.ServerVersion(); v.GitVersion != "v9.9.9" {
		t.Fatalf("faked version ignored: %v", v)
	}
	boom := errors.New("boom")
	d.PrependReactor("get", "version", func(ktesting.Action) (bool, runtime.Object, error) { return true, nil, boom })
	if _, err := d.ServerVersion(); !errors.Is(err, boom) {
		t.Fatalf("reactor error not returned: %v", err)
	}
	if d.RESTClient() != nil || d.WithLegacy() != d {
		t.Fatal("RESTClient/WithLegacy")
	}
}

func TestContextMethodsAnswerLikeTheirPlainTwins(t *testing.T) {
	var d discovery.DiscoveryInterfaces = newDiscovery()
	ctx := context.Background()
	groups, err := d.ServerGroupsWithContext(ctx)
	if err != nil || len(groups.Groups) != 2 {
		t.Fatalf("groups: %v, %v", groups, err)
	}
	if list, err := d.ServerResourcesForGroupVersionWithContext(ctx, "apps/v1"); err != nil || list.APIResources[0].Name != "deployments" {
		t.Fatalf("apps/v1: %v, %v", list, err)
	}
	if _, lists, err := d.ServerGroupsAndResourcesWithContext(ctx); err != nil || len(lists) != 3 {
		t.Fatalf("groups and resources: %d lists, %v", len(lists), err)
	}
	if preferred, err := d.ServerPreferredResourcesWithContext(ctx); err != nil || len(preferred) != 3 {
		t.Fatalf("preferred: %d, %v", len(preferred), err)
	}
	if namespaced, err := d.ServerPreferredNamespacedResourcesWithContext(ctx); err != nil || len(namespaced) != 3 {
		t.Fatalf("preferred namespaced: %d, %v", len(namespaced), err)
	}
	if v, err := d.ServerVersionWithContext(ctx); err != nil || *v != fake.DefaultServerVersion {
		t.Fatalf("version: %v, %v", v, err)
	}
	if d.WithLegacyWithContext(ctx) != d {
		t.Fatal("WithLegacyWithContext is not the client itself")
	}
}
