package testing

import (
	"fmt"
	"reflect"
	"strings"

	appsv1beta1 "k8s.io/api/apps/v1beta1"
	appsv1beta2 "k8s.io/api/apps/v1beta2"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	extensionsv1beta1 "k8s.io/api/extensions/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ScalePaths says where a custom resource keeps what its scale subresource serves, as a
// CustomResourceDefinition's subresources.scale does: dot paths such as ".spec.replicas".
type ScalePaths struct {
	// SpecReplicasPath holds the desired replicas; the scale subresource writes it.
	SpecReplicasPath string
	// StatusReplicasPath holds the observed replicas.
	StatusReplicasPath string
	// LabelSelectorPath holds the label selector, in its string form; empty when there is none.
	LabelSelectorPath string
}

// DefaultScalePaths are the paths ObjectReaction serves the scale subresource of custom resources
// from: a custom resource has the subresource when its Go type (or, unstructured, its spec) has
// the spec replicas field.
var DefaultScalePaths = ScalePaths{
	SpecReplicasPath:   ".spec.replicas",
	StatusReplicasPath: ".status.replicas",
	LabelSelectorPath:  ".status.selector",
}

// ScaleReaction serves get, update and patch of the scale subresource from the tracker, as the
// API server does: built-in Deployments, ReplicaSets, StatefulSets and ReplicationControllers
// by their own rules, custom resources from paths. ObjectReaction already serves it with
// DefaultScalePaths; put a ScaleReaction in front for a custom resource whose paths differ:
//
//	cs.PrependReactor("*", "widgets/scale", testing.ScaleReaction(cs.Tracker(), paths))
func ScaleReaction(objects ObjectTracker, paths ScalePaths) ReactionFunc {
	sc := scaler{objects: objects, s: serverFor(objects), paths: paths}
	return func(action Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "scale" {
			return false, nil, nil
		}
		obj, err := sc.react(action)
		return true, obj, err
	}
}

// scaler serves the scale subresource of one tracker.
type scaler struct {
	objects ObjectTracker
	s       server
	paths   ScalePaths
}

func (sc scaler) react(action Action) (runtime.Object, error) {
	gvr, ns := action.GetResource(), action.GetNamespace()
	switch a := action.(type) {
	case GetActionImpl:
		obj, err := sc.objects.Get(gvr, ns, a.Name)
		if err != nil {
			return nil, err
		}
		return sc.scaleOf(gvr, obj)
	case UpdateActionImpl:
		return sc.update(gvr, ns, a.Object, a.UpdateOptions)
	case PatchActionImpl:
		if a.PatchType == types.ApplyYAMLPatchType {
			return nil, apierrors.NewMethodNotSupported(scaleResource(gvr), "apply (the fake does not serve server-side apply of scale)")
		}
		obj, err := sc.objects.Get(gvr, ns, a.Name)
		if err != nil {
			return nil, err
		}
		current, err := sc.scaleOf(gvr, obj)
		if err != nil {
			return nil, err
		}
		patched, err := patchObject(scaleResource(gvr), current, a.PatchType, a.Patch)
		if err != nil {
			return nil, err
		}
		return sc.update(gvr, ns, patched, metav1.UpdateOptions{DryRun: a.PatchOptions.DryRun, FieldManager: a.PatchOptions.FieldManager})
	}
	return nil, unsupportedSubresource(gvr, "scale", action.GetVerb())
}

// update writes the desired replicas of scale to the object it names, with scale's
// resourceVersion as precondition, and returns the resulting scale.
func (sc scaler) update(gvr schema.GroupVersionResource, ns string, scale runtime.Object, opts metav1.UpdateOptions) (runtime.Object, error) {
	if scale == nil {
		return nil, errNoObject
	}
	in, err := contentOf(scale)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	name, _, _ := unstructured.NestedString(in, "metadata", "name")
	rv, _, _ := unstructured.NestedString(in, "metadata", "resourceVersion")
	replicas, _ := numberAt(in, "spec", "replicas")
	if replicas < 0 {
		return nil, apierrors.NewInvalid(autoscalingv1.SchemeGroupVersion.WithKind("Scale").GroupKind(), name,
			field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), replicas, "must be greater than or equal to 0")})
	}
	stored, err := sc.objects.Get(gvr, ns, name)
	if err != nil {
		return nil, err
	}
	specPath, _, _, err := sc.pathsOf(gvr, stored)
	if err != nil {
		return nil, err
	}
	content, err := contentOf(stored)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if err := unstructured.SetNestedField(content, replicas, specPath...); err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if rv != "" {
		if err := unstructured.SetNestedField(content, rv, "metadata", "resourceVersion"); err != nil {
			return nil, apierrors.NewInternalError(err)
		}
	}
	obj, err := fromContent(stored, content)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	updated, err := sc.s.update(gvr, "", obj, ns, opts)
	if err != nil {
		return nil, err
	}
	return sc.scaleOf(gvr, updated)
}

// scaleOf returns the scale of obj in the Scale type the resource's group version uses.
func (sc scaler) scaleOf(gvr schema.GroupVersionResource, obj runtime.Object) (runtime.Object, error) {
	specPath, statusPath, selectorOf, err := sc.pathsOf(gvr, obj)
	if err != nil {
		return nil, err
	}
	content, err := contentOf(obj)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	specReplicas, _ := numberAt(content, specPath...)
	statusReplicas, _ := numberAt(content, statusPath...)
	selector, matchLabels, err := selectorOf(content)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	om := metav1.ObjectMeta{Name: m.GetName(), Namespace: m.GetNamespace(), UID: m.GetUID(),
		ResourceVersion: m.GetResourceVersion(), CreationTimestamp: m.GetCreationTimestamp()}
	spec, status := int32(specReplicas), int32(statusReplicas)
	switch gvr.GroupVersion() {
	case appsv1beta1.SchemeGroupVersion:
		return &appsv1beta1.Scale{ObjectMeta: om, Spec: appsv1beta1.ScaleSpec{Replicas: spec},
			Status: appsv1beta1.ScaleStatus{Replicas: status, Selector: matchLabels, TargetSelector: selector}}, nil
	case appsv1beta2.SchemeGroupVersion:
		return &appsv1beta2.Scale{ObjectMeta: om, Spec: appsv1beta2.ScaleSpec{Replicas: spec},
			Status: appsv1beta2.ScaleStatus{Replicas: status, Selector: matchLabels, TargetSelector: selector}}, nil
	case extensionsv1beta1.SchemeGroupVersion:
		return &extensionsv1beta1.Scale{ObjectMeta: om, Spec: extensionsv1beta1.ScaleSpec{Replicas: spec},
			Status: extensionsv1beta1.ScaleStatus{Replicas: status, Selector: matchLabels, TargetSelector: selector}}, nil
	}
	return &autoscalingv1.Scale{ObjectMeta: om, Spec: autoscalingv1.ScaleSpec{Replicas: spec},
		Status: autoscalingv1.ScaleStatus{Replicas: status, Selector: selector}}, nil
}

// selectorFunc reads an object's label selector: its string form and, when it is a plain label
// match, that map.
type selectorFunc func(content map[string]interface{}) (string, map[string]string, error)

// scaledBuiltins are the built-in kinds the API server serves a scale subresource for, with
// the way each keeps its selector.
var scaledBuiltins = map[string]selectorFunc{
	"apps/v1.Deployment": labelSelectorAt, "apps/v1.ReplicaSet": labelSelectorAt, "apps/v1.StatefulSet": labelSelectorAt,
	"apps/v1beta1.Deployment": labelSelectorAt, "apps/v1beta1.StatefulSet": labelSelectorAt,
	"apps/v1beta2.Deployment": labelSelectorAt, "apps/v1beta2.ReplicaSet": labelSelectorAt, "apps/v1beta2.StatefulSet": labelSelectorAt,
	"extensions/v1beta1.Deployment": labelSelectorAt, "extensions/v1beta1.ReplicaSet": labelSelectorAt,
	"core/v1.ReplicationController": setSelectorAt,
}

// pathsOf returns where obj keeps its desired and observed replicas and how to read its
// selector, or the server's NotFound when its resource has no scale subresource.
func (sc scaler) pathsOf(gvr schema.GroupVersionResource, obj runtime.Object) (spec, status []string, selector selectorFunc, err error) {
	if name, ok := strings.CutPrefix(goTypeName(obj), "k8s.io/api/"); ok {
		if sel, ok := scaledBuiltins[name]; ok {
			return []string{"spec", "replicas"}, []string{"status", "replicas"}, sel, nil
		}
		return nil, nil, nil, errNoSuchSubresource()
	}
	spec, status = splitPath(sc.paths.SpecReplicasPath), splitPath(sc.paths.StatusReplicasPath)
	if !hasJSONPath(obj, spec) {
		// The server answers so for a custom resource without the scale subresource.
		var name string
		if m, merr := meta.Accessor(obj); merr == nil {
			name = m.GetName()
		}
		err := apierrors.NewNotFound(gvr.GroupResource(), name)
		err.ErrStatus.Message += fmt.Sprintf(" (the fake serves %s/scale from %s, which %T lacks; prepend a testing.ScaleReaction with the resource's ScalePaths)",
			gvr.Resource, sc.paths.SpecReplicasPath, obj)
		return nil, nil, nil, err
	}
	selectorPath := splitPath(sc.paths.LabelSelectorPath)
	return spec, status, func(content map[string]interface{}) (string, map[string]string, error) {
		if len(selectorPath) == 0 {
			return "", nil, nil
		}
		s, _, _ := unstructured.NestedString(content, selectorPath...)
		return s, nil, nil
	}, nil
}

// labelSelectorAt reads spec.selector as a metav1.LabelSelector.
func labelSelectorAt(content map[string]interface{}) (string, map[string]string, error) {
	raw, found, _ := unstructured.NestedMap(content, "spec", "selector")
	if !found {
		return "", nil, nil
	}
	var ls metav1.LabelSelector
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &ls); err != nil {
		return "", nil, err
	}
	sel, err := metav1.LabelSelectorAsSelector(&ls)
	if err != nil {
		return "", nil, err
	}
	return sel.String(), ls.MatchLabels, nil
}

// setSelectorAt reads spec.selector as a label set, as ReplicationControllers keep it.
func setSelectorAt(content map[string]interface{}) (string, map[string]string, error) {
	set, _, err := unstructured.NestedStringMap(content, "spec", "selector")
	if err != nil {
		return "", nil, err
	}
	return labels.SelectorFromSet(set).String(), set, nil
}

// splitPath turns ".spec.replicas" into its field names.
func splitPath(p string) []string {
	if p = strings.TrimPrefix(p, "."); p == "" {
		return nil
	}
	return strings.Split(p, ".")
}

// hasJSONPath reports whether obj's type has the field at path (by JSON names); for unstructured
// objects, whether the field is set.
func hasJSONPath(obj runtime.Object, path []string) bool {
	if len(path) == 0 {
		return false
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		_, found, _ := unstructured.NestedFieldNoCopy(u.Object, path...)
		return found
	}
	t := reflect.TypeOf(obj)
	for _, name := range path {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return false
		}
		f, ok := jsonField(t, name)
		if !ok {
			return false
		}
		t = f.Type
	}
	return true
}

// jsonField finds the field of struct type t that JSON names name, looking into embedded structs.
func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name {
			return f, true
		}
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			if inner, ok := jsonField(f.Type, name); ok {
				return inner, true
			}
		}
	}
	return reflect.StructField{}, false
}

// numberAt reads an integer field that may have been decoded as int64 or float64.
func numberAt(content map[string]interface{}, path ...string) (int64, bool) {
	v, found, _ := unstructured.NestedFieldNoCopy(content, path...)
	switch n := v.(type) {
	case int64:
		return n, found
	case float64:
		return int64(n), found
	case int32:
		return int64(n), found
	case int:
		return int64(n), found
	}
	return 0, false
}

// contentOf returns obj as unstructured content (a copy).
func contentOf(obj runtime.Object) (map[string]interface{}, error) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return u.DeepCopy().Object, nil
	}
	return runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
}

// fromContent converts content back into a new object of like's type.
func fromContent(like runtime.Object, content map[string]interface{}) (runtime.Object, error) {
	if _, ok := like.(*unstructured.Unstructured); ok {
		return &unstructured.Unstructured{Object: content}, nil
	}
	obj := reflect.New(reflect.TypeOf(like).Elem()).Interface().(runtime.Object)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(content, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// scaleResource is the group resource "<resource>/scale" errors name.
func scaleResource(gvr schema.GroupVersionResource) schema.GroupResource {
	return schema.GroupResource{Group: gvr.Group, Resource: gvr.Resource + "/scale"}
}
