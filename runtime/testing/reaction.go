package testing

import (
	"fmt"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

// ObjectReaction returns a reaction that serves get, list, create, update, patch, apply, delete and
// delete-collection actions from the tracker. With a tracker from NewObjectTracker or
// NewFieldManagedObjectTracker every action is one atomic step with the server's semantics,
// including the status subresource; other ObjectTracker implementations are driven through the
// interface methods. The scale subresource is served as ScaleReaction with DefaultScalePaths
// serves it.
func ObjectReaction(tracker ObjectTracker) ReactionFunc {
	s := serverFor(tracker)
	scale := ScaleReaction(tracker, DefaultScalePaths)
	return func(action Action) (bool, runtime.Object, error) {
		gvr, ns, sub := action.GetResource(), action.GetNamespace(), action.GetSubresource()
		if sub == "scale" {
			return scale(action)
		}
		switch a := action.(type) {
		case ListActionImpl:
			obj, err := tracker.List(gvr, a.Kind, ns, a.ListOptions)
			return true, obj, err
		case GetActionImpl:
			if sub != "" && sub != "status" {
				return true, nil, unsupportedSubresource(gvr, sub, "get")
			}
			obj, err := tracker.Get(gvr, ns, a.Name, a.GetOptions)
			if err == nil && sub == "status" && !servesStatus(obj) {
				return true, nil, errNoSuchSubresource()
			}
			return true, obj, err
		case CreateActionImpl:
			if sub == "" {
				obj, err := s.create(gvr, a.Object, ns, a.CreateOptions)
				return true, obj, err
			}
			if !sameStoredType(tracker, gvr, ns, a.Object) {
				// Another kind posted to a subresource (an Eviction, a TokenRequest): echoed, not stored.
				return true, deepCopyObject(a.Object), nil
			}
			obj, err := s.update(gvr, sub, a.Object, ns, metav1.UpdateOptions{
				DryRun: a.CreateOptions.DryRun, FieldManager: a.CreateOptions.FieldManager})
			return true, obj, err
		case UpdateActionImpl:
			if sub != "" && sub != "status" && !sameStoredType(tracker, gvr, ns, a.Object) {
				return true, deepCopyObject(a.Object), nil
			}
			obj, err := s.update(gvr, sub, a.Object, ns, a.UpdateOptions)
			return true, obj, err
		case PatchActionImpl:
			obj, err := s.patch(gvr, sub, ns, a.Name, a.PatchType, a.Patch, a.PatchOptions)
			return true, obj, err
		case DeleteActionImpl:
			obj, err := s.delete(gvr, ns, a.Name, a.DeleteOptions)
			return true, obj, err
		case DeleteCollectionActionImpl:
			return true, nil, s.deleteCollection(gvr, ns, a.DeleteOptions, a.ListOptions)
		default:
			return false, nil, fmt.Errorf("no reaction implemented for %s %s", action.GetVerb(), describeResource(action))
		}
	}
}

// serverFor returns the request-level view of objects: the tracker itself, or its interface
// methods for other implementations.
func serverFor(objects ObjectTracker) server {
	if t, ok := objects.(*tracker); ok {
		return t
	}
	return interfaceServer{objects}
}

// server is the request-level interface ObjectReaction drives: each method returns the stored
// result, as the API server's response does.
type server interface {
	create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts metav1.CreateOptions) (runtime.Object, error)
	update(gvr schema.GroupVersionResource, subresource string, obj runtime.Object, ns string, opts metav1.UpdateOptions) (runtime.Object, error)
	patch(gvr schema.GroupVersionResource, subresource, ns, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions) (runtime.Object, error)
	delete(gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) (runtime.Object, error)
	deleteCollection(gvr schema.GroupVersionResource, ns string, dopts metav1.DeleteOptions, lopts metav1.ListOptions) error
}

// interfaceServer serves requests with any ObjectTracker through its interface methods, reading
// back each written object. Subresources are written like the main resource.
type interfaceServer struct{ ObjectTracker }

func (s interfaceServer) readBack(gvr schema.GroupVersionResource, ns string, obj runtime.Object, err error) (runtime.Object, error) {
	if err != nil {
		return nil, err
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	return s.Get(gvr, ns, m.GetName())
}

func (s interfaceServer) create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts metav1.CreateOptions) (runtime.Object, error) {
	return s.readBack(gvr, ns, obj, s.Create(gvr, obj, ns, opts))
}

func (s interfaceServer) update(gvr schema.GroupVersionResource, _ string, obj runtime.Object, ns string, opts metav1.UpdateOptions) (runtime.Object, error) {
	return s.readBack(gvr, ns, obj, s.Update(gvr, obj, ns, opts))
}

func (s interfaceServer) patch(gvr schema.GroupVersionResource, _, ns, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions) (runtime.Object, error) {
	if pt == types.ApplyYAMLPatchType {
		cfg := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(data, &cfg.Object); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		cfg.SetName(name)
		return s.readBack(gvr, ns, cfg, s.Apply(gvr, cfg, ns, opts))
	}
	old, err := s.Get(gvr, ns, name)
	if err != nil {
		return nil, err
	}
	obj, err := patchObject(gvr.GroupResource(), old, pt, data)
	if err != nil {
		return nil, err
	}
	return s.readBack(gvr, ns, obj, s.Patch(gvr, obj, ns, opts))
}

func (s interfaceServer) delete(gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) (runtime.Object, error) {
	return nil, s.Delete(gvr, ns, name, opts)
}

func (s interfaceServer) deleteCollection(gvr schema.GroupVersionResource, ns string, dopts metav1.DeleteOptions, lopts metav1.ListOptions) error {
	sel, err := newSelection(ns, lopts)
	if err != nil {
		return err
	}
	list, err := s.List(gvr, schema.GroupVersionKind{}, ns, lopts)
	if err != nil {
		return err
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return err
	}
	for _, item := range items {
		m, err := meta.Accessor(item)
		if err != nil || !sel.matches(item) {
			continue
		}
		if err := s.Delete(gvr, m.GetNamespace(), m.GetName(), dopts); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// sameStoredType reports whether obj has the Go type of the stored object it names, i.e. whether a
// subresource write carries the resource itself rather than another kind such as Scale.
func sameStoredType(tracker ObjectTracker, gvr schema.GroupVersionResource, ns string, obj runtime.Object) bool {
	if obj == nil {
		return false
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return false
	}
	stored, err := tracker.Get(gvr, ns, m.GetName())
	return err == nil && reflect.TypeOf(stored) == reflect.TypeOf(obj)
}

// unsupportedSubresource is the error for subresources the tracker cannot serve; tests serve them
// with their own reactor placed in front (PrependReactor).
func unsupportedSubresource(gvr schema.GroupVersionResource, sub, verb string) error {
	return apierrors.NewMethodNotSupported(schema.GroupResource{Group: gvr.Group, Resource: gvr.Resource + "/" + sub}, verb)
}
