package testing

import (
	"fmt"
	"net/http"
	"reflect"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

// patch applies a JSON, merge or strategic merge patch (or a server-side apply) to the stored
// object atomically and returns the stored result.
func (t *tracker) patch(gvr schema.GroupVersionResource, subresource, ns, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions) (runtime.Object, error) {
	if pt == types.ApplyYAMLPatchType {
		return t.applyPatch(gvr, subresource, ns, name, data, opts)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	old, err := t.get(gvr, ns, name)
	if err != nil {
		return nil, err
	}
	obj, err := patchObject(gvr.GroupResource(), old, pt, data)
	if err != nil {
		return nil, err
	}
	if err := checkIdentity(obj, ns, name); err != nil {
		return nil, err
	}
	return t.updateLocked(gvr, subresource, obj, writeOptions{dryRun: isDryRun(opts.DryRun), fieldManager: opts.FieldManager})
}

// patchObject returns a new object: old with the patch applied.
func patchObject(gr schema.GroupResource, old runtime.Object, pt types.PatchType, data []byte) (runtime.Object, error) {
	oldJSON, err := json.Marshal(old)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	var patched []byte
	switch pt {
	case types.JSONPatchType:
		p, err := jsonpatch.DecodePatch(data)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		if patched, err = p.Apply(oldJSON); err != nil {
			return nil, unprocessable(err)
		}
	case types.MergePatchType:
		if patched, err = jsonpatch.MergePatch(oldJSON, data); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
	case types.StrategicMergePatchType:
		if !isBuiltin(old) {
			// Custom resources have no patch strategies: the server refuses strategic merge patches.
			return nil, apierrors.NewGenericServerResponse(http.StatusUnsupportedMediaType, "", schema.GroupResource{}, "",
				"strategic merge patch format is not supported", 0, false)
		}
		if patched, err = strategicpatch.StrategicMergePatch(oldJSON, data, newOfType(old)); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
	default:
		return nil, apierrors.NewGenericServerResponse(http.StatusUnsupportedMediaType, "", gr, "",
			fmt.Sprintf("unsupported patch type %q", pt), 0, false)
	}
	obj := newOfType(old)
	if err := json.Unmarshal(patched, obj); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return obj, nil
}

// Apply implements ObjectTracker.
func (t *tracker) Apply(gvr schema.GroupVersionResource, applyConfiguration runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	o, err := single(opts)
	if err != nil {
		return err
	}
	data, err := json.Marshal(applyConfiguration)
	if err != nil {
		return err
	}
	m, err := meta.Accessor(applyConfiguration)
	if err != nil {
		return err
	}
	_, err = t.applyPatch(gvr, "", ns, m.GetName(), data, o)
	return err
}

// applyPatch serves a server-side apply: with a type converter it merges by field ownership and
// reports conflicts; without one it merges like a strategic merge patch. A missing object is created.
func (t *tracker) applyPatch(gvr schema.GroupVersionResource, subresource, ns, name string, data []byte, opts metav1.PatchOptions) (runtime.Object, error) {
	cfg := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(data, &cfg.Object); err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding YAML: %v", err))
	}
	if cfg.Object == nil {
		return nil, apierrors.NewBadRequest("apply configuration is empty")
	}
	if opts.FieldManager == "" {
		return nil, apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: "PatchOptions"}, "", field.ErrorList{
			field.Required(field.NewPath("fieldManager"), "is required for apply patch")})
	}
	if cfg.GetName() == "" {
		cfg.SetName(name)
	}
	if cfg.GetNamespace() == "" {
		cfg.SetNamespace(ns)
	}
	if err := checkIdentity(cfg, ns, name); err != nil {
		return nil, err
	}
	force := opts.Force != nil && *opts.Force
	wo := writeOptions{dryRun: isDryRun(opts.DryRun), fieldManager: opts.FieldManager, fieldsManaged: true}

	t.mu.Lock()
	defer t.mu.Unlock()
	old, err := t.get(gvr, ns, name)
	exists := err == nil
	if !exists && (subresource != "" || !apierrors.IsNotFound(err)) {
		return nil, err
	}
	live := old
	if !exists {
		if live, err = t.newForApply(gvr, cfg); err != nil {
			return nil, err
		}
	} else {
		live = old.DeepCopyObject()
	}

	mgr, err := t.fieldManager(live, subresource)
	if err != nil {
		return nil, err
	}
	var obj runtime.Object
	if mgr != nil {
		if obj, err = mgr.Apply(live, cfg, opts.FieldManager, force); err != nil {
			return nil, err
		}
	} else if obj, err = mergeApply(live, cfg); err != nil {
		return nil, err
	}
	if !exists {
		if m, err := meta.Accessor(obj); err == nil {
			m.SetResourceVersion("")
		}
		return t.createLocked(gvr, obj, wo)
	}
	return t.updateLocked(gvr, subresource, obj, wo)
}

// newForApply returns the empty object an apply creating a new object starts from: the stored
// type of the resource when known, the scheme's type for the configuration's kind, or unstructured.
func (t *tracker) newForApply(gvr schema.GroupVersionResource, cfg *unstructured.Unstructured) (runtime.Object, error) {
	gvk := cfg.GroupVersionKind()
	if gvk.Empty() {
		gvk = t.store(gvr).kind
	}
	if gvk.Kind == "" {
		return nil, apierrors.NewBadRequest("apply configuration must set apiVersion and kind")
	}
	obj, err := t.scheme.New(gvk)
	if err != nil {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		return u, nil
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return obj, nil
}

// mergeApply merges an apply configuration into live without field ownership: strategically for
// typed objects, as a JSON merge patch for unstructured ones.
func mergeApply(live runtime.Object, cfg *unstructured.Unstructured) (runtime.Object, error) {
	liveJSON, err := json.Marshal(live)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	cfgJSON, err := json.Marshal(cfg.Object)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	var merged []byte
	if _, ok := live.(*unstructured.Unstructured); ok {
		merged, err = jsonpatch.MergePatch(liveJSON, cfgJSON)
	} else {
		merged, err = strategicpatch.StrategicMergePatch(liveJSON, cfgJSON, newOfType(live))
	}
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	obj := newOfType(live)
	if err := json.Unmarshal(merged, obj); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return obj, nil
}

// newOfType returns a new zero object of obj's Go type.
func newOfType(obj runtime.Object) runtime.Object {
	if _, ok := obj.(*unstructured.Unstructured); ok {
		return &unstructured.Unstructured{}
	}
	return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
}

// checkIdentity rejects a patched or applied object whose name or namespace differs from the request's.
func checkIdentity(obj runtime.Object, ns, name string) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	if m.GetName() != name {
		return apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", m.GetName(), name))
	}
	if m.GetNamespace() != ns {
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return nil
}

// unprocessable is the 422 the server returns when a JSON patch cannot be applied.
func unprocessable(err error) error {
	return apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
}
