package builtin_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/errors"

	corelisters "github.com/kgen-dev/kgen/builtin/listers/core/v1"
	networkinglisters "github.com/kgen-dev/kgen/builtin/listers/networking/v1"
	"github.com/kgen-dev/kgen/runtime/cache"
)

// TestListerNotFoundNamesLowercaseKind checks that the built-in listers word NotFound errors as
// client-go's do, with the lowercase singular kind as the resource: controllers copy that text into
// status messages and events, and their tests compare it.
func TestListerNotFoundNamesLowercaseKind(t *testing.T) {
	newIndexer := func() cache.Indexer {
		return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	}
	for _, c := range []struct {
		get  func() error
		want string
	}{
		{func() error {
			_, err := corelisters.NewPersistentVolumeClaimLister(newIndexer()).PersistentVolumeClaims("ns").Get("x")
			return err
		}, `persistentvolumeclaim "x" not found`},
		{func() error {
			_, err := corelisters.NewEndpointsLister(newIndexer()).Endpoints("ns").Get("x")
			return err
		}, `endpoints "x" not found`},
		{func() error {
			_, err := networkinglisters.NewIngressClassLister(newIndexer()).Get("x")
			return err
		}, `ingressclass.networking.k8s.io "x" not found`},
	} {
		err := c.get()
		if !errors.IsNotFound(err) || err.Error() != c.want {
			t.Errorf("got %v, want NotFound %q", err, c.want)
		}
	}
}
