package cache

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestInformerNamesAreUniqueUntilReleased(t *testing.T) {
	if _, err := NewInformerName(""); err == nil {
		t.Fatal("an empty name was accepted")
	}
	n, err := NewInformerName("controller-a")
	if err != nil || n.Name() != "controller-a" {
		t.Fatalf("NewInformerName: %v, %v", n, err)
	}
	if _, err := NewInformerName("controller-a"); err == nil {
		t.Fatal("a reserved name was reserved twice")
	}
	pods := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	first, second := n.WithResource(pods), n.WithResource(pods)
	if !first.Reserved() || second.Reserved() || first.Name() != "controller-a" || first.GroupVersionResource() != pods {
		t.Fatalf("first %+v reserved %v, second reserved %v", first, first.Reserved(), second.Reserved())
	}
	n.Release()
	if first.Reserved() {
		t.Fatal("a registration stayed reserved after Release")
	}
	again, err := NewInformerName("controller-a")
	if err != nil || !again.WithResource(pods).Reserved() {
		t.Fatalf("reusing a released name: %v", err)
	}
	n.Release() // a stale holder releasing again does not free the new holder's name
	if _, err := NewInformerName("controller-a"); err == nil {
		t.Fatal("a second Release by the old holder freed the new holder's name")
	}
	again.Release()

	var none *InformerName
	if none.Name() != "" || none.WithResource(pods).Reserved() {
		t.Fatal("a nil InformerName reserves something")
	}
	none.Release()
}
