package memory

import (
	"errors"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/discovery"
)

// countingDiscovery serves one group version and counts full fetches; v2 fails until fixed.
type countingDiscovery struct {
	discovery.DiscoveryInterface
	fetches int
	fixed   bool
}

func (d *countingDiscovery) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	d.fetches++
	g := &metav1.APIGroup{Name: "x", Versions: []metav1.GroupVersionForDiscovery{{GroupVersion: "x/v1", Version: "v1"}, {GroupVersion: "x/v2", Version: "v2"}}}
	lists := []*metav1.APIResourceList{{GroupVersion: "x/v1", APIResources: []metav1.APIResource{{Name: "things"}}}}
	return []*metav1.APIGroup{g}, lists, &discovery.ErrGroupDiscoveryFailed{Groups: map[schema.GroupVersion]error{{Group: "x", Version: "v2"}: errors.New("down")}}
}

func (d *countingDiscovery) ServerResourcesForGroupVersion(gv string) (*metav1.APIResourceList, error) {
	if !d.fixed {
		return nil, errors.New("still down")
	}
	return &metav1.APIResourceList{GroupVersion: gv, APIResources: []metav1.APIResource{{Name: "things"}}}, nil
}

func TestFreshnessAndFailedGroupRetry(t *testing.T) {
	d := &countingDiscovery{}
	now := time.Unix(1000, 0)
	c := &memCacheClient{delegate: d, now: func() time.Time { return now }}
	if _, err := c.ServerResourcesForGroupVersion("x/v1"); err != nil {
		t.Fatal(err)
	}
	if !c.Fresh() || d.fetches != 1 {
		t.Fatalf("fresh=%v fetches=%d", c.Fresh(), d.fetches)
	}
	now = now.Add(FreshnessWindow)
	if c.Fresh() {
		t.Fatal("still fresh after the window")
	}
	if _, err := c.ServerResourcesForGroupVersion("x/v2"); err == nil {
		t.Fatal("want error for the failed group version")
	}
	d.fixed = true
	if l, err := c.ServerResourcesForGroupVersion("x/v2"); err != nil || l.APIResources[0].Name != "things" {
		t.Fatalf("retry of failed group version: %v", err)
	}
	if _, _, err := c.ServerGroupsAndResources(); err != nil {
		t.Fatalf("recovered group version must clear the failure: %v", err)
	}
	if d.fetches != 1 {
		t.Fatalf("fetches = %d, want 1 (answers come from the cache)", d.fetches)
	}
}
