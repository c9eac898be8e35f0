package sharding

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Label keys kgen's sharding writes. The ring's name is the key's name part, so one object can be
// claimed by at most one ring of each name; the coordinator also refuses objects another ring claims.
const (
	// ShardLabelPrefix + ring names the label holding the identity of the replica owning an object.
	ShardLabelPrefix = "shard.sharding.kgen.dev/"
	// DrainLabelPrefix + ring names the label asking the owner to hand an object over; its value is
	// the identity of the replica the object moves to.
	DrainLabelPrefix = "drain.sharding.kgen.dev/"
	// RingLabel on a Lease names the ring whose member holds it.
	RingLabel = "sharding.kgen.dev/ring"
	// MemberLabel on a Lease names the member (the replica's identity) it belongs to.
	MemberLabel = "sharding.kgen.dev/member"
)

// ShardLabel returns the shard label key of ring.
func ShardLabel(ring string) string { return ShardLabelPrefix + ring }

// DrainLabel returns the drain label key of ring.
func DrainLabel(ring string) string { return DrainLabelPrefix + ring }

// validateNames checks that a ring name and an identity can be used as label name and value.
func validateNames(ring, identity string) error {
	if errs := validation.IsQualifiedName(ShardLabel(ring)); len(errs) > 0 {
		return fmt.Errorf("sharding: ring name %q cannot name a label: %v", ring, errs)
	}
	if identity == "" {
		return fmt.Errorf("sharding: ring %q: empty identity", ring)
	}
	if errs := validation.IsValidLabelValue(identity); len(errs) > 0 {
		return fmt.Errorf("sharding: identity %q cannot be a label value: %v", identity, errs)
	}
	return nil
}

// Resource is one kind of object a ring shards.
type Resource struct {
	// Resource is the resource's group, version and plural name.
	Resource schema.GroupVersionResource
	// Kind is its kind, matched against the controller owner references of controlled objects.
	Kind string
}

func (r Resource) groupKind() schema.GroupKind {
	return schema.GroupKind{Group: r.Resource.Group, Kind: r.Kind}
}

// HashKey is the key an object is placed on the ring by: group/Kind/namespace/name of the object, or,
// for an object whose controller owner reference points at one of mains, that owner's, so an object
// and the objects it controls land on the same replica.
func HashKey(self schema.GroupKind, obj metav1.Object, mains []schema.GroupKind) string {
	if ref := metav1.GetControllerOf(obj); ref != nil {
		if gv, err := schema.ParseGroupVersion(ref.APIVersion); err == nil {
			owner := schema.GroupKind{Group: gv.Group, Kind: ref.Kind}
			for _, m := range mains {
				if m == owner {
					return objectKey(owner, obj.GetNamespace(), ref.Name)
				}
			}
		}
	}
	return objectKey(self, obj.GetNamespace(), obj.GetName())
}

func objectKey(gk schema.GroupKind, namespace, name string) string {
	return gk.Group + "/" + gk.Kind + "/" + namespace + "/" + name
}
