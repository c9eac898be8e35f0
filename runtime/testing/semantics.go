package testing

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
)

// This file holds the rules the API server's registry applies to every write, expressed over any
// object: which parts are "spec" (bump metadata.generation), which are "status" (only writable
// through the status subresource), and the system fields the server owns.

// typeInfo is what the write rules need to know about a Go type, computed once per type.
type typeInfo struct {
	hasSpec, hasStatus bool
	name               string // package-qualified struct name
}

var typeInfos sync.Map // reflect.Type -> typeInfo

// infoOf returns the type information of the object's Go type.
func infoOf(obj runtime.Object) typeInfo {
	t := reflect.TypeOf(obj)
	if info, ok := typeInfos.Load(t); ok {
		return info.(typeInfo)
	}
	var info typeInfo
	if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		exported := func(name string) bool {
			f, ok := t.Elem().FieldByName(name)
			return ok && f.IsExported()
		}
		info = typeInfo{hasSpec: exported("Spec"), hasStatus: exported("Status"), name: t.Elem().PkgPath() + "." + t.Elem().Name()}
	}
	if _, ok := obj.(*unstructured.Unstructured); ok {
		info.hasSpec, info.hasStatus = false, false
	}
	typeInfos.Store(t, info)
	return info
}

// hasField reports whether the object's Go struct has an exported Spec or Status field.
func hasField(obj runtime.Object, name string) bool {
	info := infoOf(obj)
	return (name == "Spec" && info.hasSpec) || (name == "Status" && info.hasStatus)
}

// hasStatusSubresource reports whether writes must keep status and the rest of the object apart:
// typed objects with a Status field. Unstructured objects carry no schema, so like a CRD without a
// status subresource they are written whole.
func hasStatusSubresource(obj runtime.Object) bool { return hasField(obj, "Status") }

// tracksGeneration reports whether metadata.generation is maintained: typed objects with a Spec
// field, and unstructured (custom) objects, as the server does.
func tracksGeneration(obj runtime.Object) bool {
	if _, ok := obj.(*unstructured.Unstructured); ok {
		return true
	}
	return hasField(obj, "Spec")
}

// copyStatus sets dst's status to a copy of src's.
func copyStatus(dst, src runtime.Object) {
	src = src.DeepCopyObject()
	reflect.ValueOf(dst).Elem().FieldByName("Status").Set(reflect.ValueOf(src).Elem().FieldByName("Status"))
}

// clearStatus zeroes the object's status.
func clearStatus(obj runtime.Object) {
	f := reflect.ValueOf(obj).Elem().FieldByName("Status")
	f.Set(reflect.Zero(f.Type()))
}

// isBuiltin reports whether the object is a Kubernetes built-in type (k8s.io/api), whose registry
// strategies differ from those of custom resources.
func isBuiltin(obj runtime.Object) bool {
	return strings.HasPrefix(goTypeName(obj), "k8s.io/api/")
}

// statusUpdate returns what a write of obj through the status subresource stores over old. For
// custom resources only status (and the managed fields recording it) is taken from obj. Built-in
// types take metadata from obj as well, except what their strategies protect: a Deployment's
// labels and a Pod's owner references.
func statusUpdate(old, obj runtime.Object) runtime.Object {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		out := old.DeepCopyObject().(*unstructured.Unstructured)
		out.SetManagedFields(u.GetManagedFields())
		if status, ok := u.Object["status"]; ok {
			out.Object["status"] = runtime.DeepCopyJSONValue(status)
		} else {
			delete(out.Object, "status")
		}
		return out
	}
	if !isBuiltin(obj) {
		managed := accessor(obj).GetManagedFields()
		out := old.DeepCopyObject()
		copyStatus(out, obj)
		accessor(out).SetManagedFields(managed)
		return out
	}
	out, prev := obj.DeepCopyObject(), old.DeepCopyObject()
	outValue, prevValue := reflect.ValueOf(out).Elem(), reflect.ValueOf(prev).Elem()
	for i := 0; i < outValue.NumField(); i++ {
		switch f := outValue.Type().Field(i); f.Name {
		case "TypeMeta", "ObjectMeta", "Status":
		default:
			if f.IsExported() {
				outValue.Field(i).Set(prevValue.Field(i))
			}
		}
	}
	outMeta, prevMeta := accessor(out), accessor(prev)
	switch goTypeName(out) {
	case "k8s.io/api/apps/v1.Deployment":
		outMeta.SetLabels(prevMeta.GetLabels())
	case "k8s.io/api/core/v1.Pod":
		outMeta.SetOwnerReferences(prevMeta.GetOwnerReferences())
	}
	return out
}

// accessor returns the metadata of an object the tracker already accepted (so it has metadata).
func accessor(obj runtime.Object) metav1.Object {
	m, _ := meta.Accessor(obj)
	return m
}

// goTypeName returns the package-qualified name of the object's struct type.
func goTypeName(obj runtime.Object) string { return infoOf(obj).name }

// specChanged reports whether anything but metadata (and status, when it is a subresource) differs.
func specChanged(oldObj, newObj runtime.Object) bool {
	oldBody, err1 := bodyOf(oldObj)
	newBody, err2 := bodyOf(newObj)
	if err1 != nil || err2 != nil {
		return true
	}
	return !equality.Semantic.DeepEqual(oldBody, newBody)
}

// bodyOf returns the object as a map without metadata, type meta and separated status.
func bodyOf(obj runtime.Object) (map[string]interface{}, error) {
	var m map[string]interface{}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		m = runtime.DeepCopyJSON(u.Object)
	} else {
		var err error
		if m, err = runtime.DefaultUnstructuredConverter.ToUnstructured(obj); err != nil {
			return nil, err
		}
		if hasStatusSubresource(obj) {
			delete(m, "status")
		}
	}
	delete(m, "metadata")
	delete(m, "apiVersion")
	delete(m, "kind")
	return m, nil
}

// sameContent reports whether a write would leave the object unchanged, in which case the server
// neither bumps resourceVersion nor emits a watch event. Like the server, which compares encoded
// bytes, it compares the JSON forms (ignoring resourceVersion and managed-field timestamps).
func sameContent(oldObj, newObj runtime.Object) bool {
	om, err1 := meta.Accessor(oldObj)
	nm, err2 := meta.Accessor(newObj)
	if err1 != nil || err2 != nil {
		return false
	}
	plain := om.GetResourceVersion() == nm.GetResourceVersion() && len(om.GetManagedFields()) == 0 && len(nm.GetManagedFields()) == 0
	if plain && reflect.DeepEqual(oldObj, newObj) {
		return true
	}
	if !plain {
		oldObj, newObj = oldObj.DeepCopyObject(), newObj.DeepCopyObject()
		for _, o := range []runtime.Object{oldObj, newObj} {
			m, _ := meta.Accessor(o)
			m.SetResourceVersion("")
			m.SetManagedFields(stripTimes(m.GetManagedFields()))
		}
	}
	a, err1 := json.Marshal(oldObj)
	b, err2 := json.Marshal(newObj)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

func stripTimes(entries []metav1.ManagedFieldsEntry) []metav1.ManagedFieldsEntry {
	for i := range entries {
		entries[i].Time = nil
	}
	return entries
}

// now returns the current time at the second precision the server stores.
func now() metav1.Time { return metav1.NewTime(time.Now().Truncate(time.Second)) }

// generateName appends five random characters to the prefix as the server's name generator does,
// keeping the result within the 63-character limit.
func generateName(prefix string) string {
	const maxPrefix = 63 - 5
	if len(prefix) > maxPrefix {
		prefix = prefix[:maxPrefix]
	}
	return prefix + utilrand.String(5)
}

// containsAll reports whether every element of sub is in set.
func containsAll(set, sub []string) bool {
	have := make(map[string]bool, len(set))
	for _, s := range set {
		have[s] = true
	}
	for _, s := range sub {
		if !have[s] {
			return false
		}
	}
	return true
}
