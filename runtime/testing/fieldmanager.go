package testing

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// NewFieldManagedObjectTracker returns an ObjectTracker that also maintains metadata.managedFields
// on every write and serves server-side apply with ownership and conflicts, using the type
// converter for the schema of the stored types.
func NewFieldManagedObjectTracker(scheme *runtime.Scheme, decoder runtime.Decoder, typeConverter managedfields.TypeConverter) ObjectTracker {
	return newTracker(scheme, decoder, typeConverter)
}

// managerKey identifies a field manager: one per kind and subresource.
type managerKey struct {
	gvk         schema.GroupVersionKind
	subresource string
}

// fieldManager returns the kind's field manager, or nil when the tracker does not manage fields.
// Callers hold t.mu.
func (t *tracker) fieldManager(obj runtime.Object, subresource string) (*managedfields.FieldManager, error) {
	scheme, ok := t.scheme.(*runtime.Scheme)
	if t.typeConverter == nil || !ok {
		return nil, nil
	}
	gvks, err := t.kindsOf(obj)
	if err != nil {
		return nil, err
	}
	key := managerKey{gvk: gvks[0], subresource: subresource}
	if mgr := t.managers[key]; mgr != nil {
		return mgr, nil
	}
	newManager := managedfields.NewDefaultFieldManager
	if _, ok := obj.(*unstructured.Unstructured); ok {
		newManager = managedfields.NewDefaultCRDFieldManager
	}
	mgr, err := newManager(t.typeConverter, scheme, noDefaulting{}, scheme, key.gvk, key.gvk.GroupVersion(),
		subresource, resetFields(obj, key.gvk, subresource))
	if err != nil {
		return nil, err
	}
	t.managers[key] = mgr
	return mgr, nil
}

// resetFields keeps status out of the main resource's managed fields and spec out of the status
// subresource's, matching the separation the writes enforce.
func resetFields(obj runtime.Object, gvk schema.GroupVersionKind, subresource string) map[fieldpath.APIVersion]fieldpath.Filter {
	if !hasStatusSubresource(obj) {
		return nil
	}
	reset := fieldpath.MakePathOrDie("status")
	if subresource == "status" {
		reset = fieldpath.MakePathOrDie("spec")
	}
	return map[fieldpath.APIVersion]fieldpath.Filter{
		fieldpath.APIVersion(gvk.GroupVersion().String()): fieldpath.NewExcludeSetFilter(fieldpath.NewSet(reset)),
	}
}

// manageFields records the write of obj over live (nil for a create) in obj's managed fields.
// Callers hold t.mu.
func (t *tracker) manageFields(live, obj runtime.Object, subresource, manager string) (runtime.Object, error) {
	mgr, err := t.fieldManager(obj, subresource)
	if mgr == nil || err != nil {
		return obj, err
	}
	if live == nil {
		if live, err = t.emptyLike(obj); err != nil {
			return nil, err
		}
	}
	return mgr.Update(live, obj, manager)
}

// emptyLike returns a new empty object of obj's kind, with the kind set.
func (t *tracker) emptyLike(obj runtime.Object) (runtime.Object, error) {
	gvks, err := t.kindsOf(obj)
	if err != nil {
		return nil, err
	}
	var empty runtime.Object
	if _, ok := obj.(*unstructured.Unstructured); ok {
		empty = &unstructured.Unstructured{}
	} else if empty, err = t.scheme.New(gvks[0]); err != nil {
		return nil, err
	}
	empty.GetObjectKind().SetGroupVersionKind(gvks[0])
	return empty, nil
}

// noDefaulting is the defaulter of the field managers: the tracker applies no defaults.
type noDefaulting struct{}

func (noDefaulting) Default(runtime.Object) {}
