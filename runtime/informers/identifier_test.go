package informers

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/cache"
)

func TestIdentifierNamesReservedRegistrationsOnly(t *testing.T) {
	pods := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	gizmos := schema.GroupVersionResource{Group: "example2.kgen.dev", Version: "v1", Resource: "gizmos"}
	var unnamed *cache.InformerName
	if id := identifier(unnamed.WithResource(pods)); id != "" {
		t.Fatalf("unnamed identifier = %q; want none", id)
	}
	name, err := cache.NewInformerName("ctrl")
	if err != nil {
		t.Fatal(err)
	}
	defer name.Release()
	if id := identifier(name.WithResource(gizmos)); id != "ctrl/example2.kgen.dev/v1/gizmos" {
		t.Fatalf("identifier = %q", id)
	}
	if id := identifier(name.WithResource(pods)); id != "ctrl/core/v1/pods" {
		t.Fatalf("core identifier = %q", id)
	}
	if id := identifier(name.WithResource(pods)); id != "" {
		t.Fatalf("a second pods informer under one name got identifier %q; want none", id)
	}
}
