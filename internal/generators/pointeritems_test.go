package generators_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	pointeritemsv1 "github.com/kgen-dev/kgen/testdata/apis/pointeritems/v1"
	"github.com/kgen-dev/kgen/testdata/generated/clientset/versioned/fake"
)

// A list declared as Items []*T (istio.io/client-go's APIs) gets a fake that builds and lists.
func TestFakeListsPointerItems(t *testing.T) {
	seed := &pointeritemsv1.Route{ObjectMeta: metav1.ObjectMeta{Name: "seeded", Namespace: "ns"}}
	cs := fake.NewSimpleClientset(seed)
	routes := cs.PointeritemsV1().Routes("ns")
	if _, err := routes.Create(t.Context(), &pointeritemsv1.Route{ObjectMeta: metav1.ObjectMeta{Name: "created"}, Spec: pointeritemsv1.RouteSpec{Host: "example.com"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	list, err := routes.List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 2 || list.Items[0].Name != "created" || list.Items[0].Spec.Host != "example.com" || list.Items[1].Name != "seeded" {
		t.Fatalf("listed %+v; want created and seeded", list.Items)
	}
}
