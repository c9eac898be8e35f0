package events

import (
	"errors"
	"fmt"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// ErrNilObject is returned when asked to reference a nil object.
var ErrNilObject = errors.New("events: cannot reference a nil object")

// GetReference builds an ObjectReference to obj: kind and apiVersion come from the object's TypeMeta,
// or from scheme when the TypeMeta is empty (as it is for typed objects read from a cache); namespace,
// name, uid and resourceVersion come from its metadata. A *corev1.ObjectReference is returned as a copy.
func GetReference(scheme *runtime.Scheme, obj runtime.Object) (*corev1.ObjectReference, error) {
	if isNil(obj) {
		return nil, ErrNilObject
	}
	if ref, ok := obj.(*corev1.ObjectReference); ok {
		out := *ref
		return &out, nil
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Empty() {
		if scheme == nil {
			return nil, fmt.Errorf("events: %T has no kind set and no scheme was given to look it up", obj)
		}
		kinds, _, err := scheme.ObjectKinds(obj)
		if err != nil {
			return nil, fmt.Errorf("events: looking up the kind of %T: %w", obj, err)
		}
		if len(kinds) == 0 || kinds[0].Empty() {
			return nil, fmt.Errorf("events: scheme has no kind for %T", obj)
		}
		gvk = kinds[0]
	}
	ref := &corev1.ObjectReference{Kind: gvk.Kind, APIVersion: gvk.GroupVersion().String()}
	if m, err := meta.Accessor(obj); err == nil {
		ref.Namespace = m.GetNamespace()
		ref.Name = m.GetName()
		ref.UID = m.GetUID()
		ref.ResourceVersion = m.GetResourceVersion()
		return ref, nil
	}
	// Lists carry only list metadata.
	c, err := meta.CommonAccessor(obj)
	if err != nil {
		return nil, fmt.Errorf("events: %T has no object metadata: %w", obj, err)
	}
	ref.ResourceVersion = c.GetResourceVersion()
	return ref, nil
}

// GetPartialReference is GetReference with FieldPath set, for events about a part of an object such as
// one container of a pod (fieldPath "spec.containers{name}").
func GetPartialReference(scheme *runtime.Scheme, obj runtime.Object, fieldPath string) (*corev1.ObjectReference, error) {
	ref, err := GetReference(scheme, obj)
	if err != nil {
		return nil, err
	}
	ref.FieldPath = fieldPath
	return ref, nil
}

// isNil reports whether obj is nil or a typed nil pointer, which would panic on first use.
func isNil(obj runtime.Object) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
