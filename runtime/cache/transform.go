package cache

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TransformStripManagedFields drops metadata.managedFields, which is often the largest part of a cached
// object and is rarely read by controllers. It modifies the object in place; objects without metadata
// pass through unchanged. Informers do this by default (see SharedIndexInformerOptions.KeepManagedFields),
// so it is only needed with a DeltaFIFO or a Store filled by hand.
func TransformStripManagedFields(obj any) (any, error) {
	dropManagedFields(obj)
	return obj, nil
}

// dropManagedFields removes metadata.managedFields from obj in place, if it has any. Unstructured
// objects are edited in their map, without converting the entries to typed ones first.
func dropManagedFields(obj any) {
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		if md, ok := o.Object["metadata"].(map[string]any); ok {
			delete(md, "managedFields")
		}
	default:
		if m, err := meta.Accessor(obj); err == nil && m.GetManagedFields() != nil {
			m.SetManagedFields(nil)
		}
	}
}

// TransformToPartialObjectMetadata caches only the type and object metadata of each object, as a
// *metav1.PartialObjectMetadata, for programs that never read spec or status. managedFields are
// dropped as well. Set it with SharedInformer.SetTransform.
func TransformToPartialObjectMetadata(obj any) (any, error) {
	switch o := obj.(type) {
	case *metav1.PartialObjectMetadata, DeletedFinalStateUnknown:
		return o, nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return obj, nil
	}
	out := &metav1.PartialObjectMetadata{}
	if t, err := meta.TypeAccessor(obj); err == nil {
		out.APIVersion, out.Kind = t.GetAPIVersion(), t.GetKind()
	}
	out.Name = m.GetName()
	out.GenerateName = m.GetGenerateName()
	out.Namespace = m.GetNamespace()
	out.UID = m.GetUID()
	out.ResourceVersion = m.GetResourceVersion()
	out.Generation = m.GetGeneration()
	out.CreationTimestamp = m.GetCreationTimestamp()
	out.DeletionTimestamp = m.GetDeletionTimestamp()
	out.DeletionGracePeriodSeconds = m.GetDeletionGracePeriodSeconds()
	out.Labels = m.GetLabels()
	out.Annotations = m.GetAnnotations()
	out.OwnerReferences = m.GetOwnerReferences()
	out.Finalizers = m.GetFinalizers()
	return out, nil
}
