package cache

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// NewObjectName returns the ObjectName of namespace and name.
func NewObjectName(namespace, name string) ObjectName {
	return ObjectName{Namespace: namespace, Name: name}
}

// Parts returns the namespace and the name.
func (n ObjectName) Parts() (namespace, name string) {
	return n.Namespace, n.Name
}

// AsNamespacedName returns the same namespace and name as a types.NamespacedName.
func (n ObjectName) AsNamespacedName() types.NamespacedName {
	return types.NamespacedName{Namespace: n.Namespace, Name: n.Name}
}

// ParseObjectName parses the "namespace/name" or "name" form String produces.
func ParseObjectName(str string) (ObjectName, error) {
	ns, name, err := SplitMetaNamespaceKey(str)
	return ObjectName{Namespace: ns, Name: name}, err
}

// NamespacedNameAsObjectName returns the ObjectName of a types.NamespacedName.
func NamespacedNameAsObjectName(nn types.NamespacedName) ObjectName {
	return ObjectName{Namespace: nn.Namespace, Name: nn.Name}
}

// MetaObjectToName returns the ObjectName of an object's metadata.
func MetaObjectToName(obj metav1.Object) ObjectName {
	return ObjectName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
}

// DeletionHandlingObjectToName is ObjectToName that also accepts a DeletedFinalStateUnknown
// tombstone, returning the name its key carries.
func DeletionHandlingObjectToName(obj any) (ObjectName, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return ParseObjectName(d.Key)
	}
	return ObjectToName(obj)
}
