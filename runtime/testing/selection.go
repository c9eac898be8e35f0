package testing

import (
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

// selection is the namespace, label and field filter of a list, watch or delete-collection request.
type selection struct {
	namespace string
	labels    labels.Selector
	fields    fields.Selector
}

// newSelection parses the selectors of opts, failing with BadRequest like the server.
func newSelection(ns string, opts metav1.ListOptions) (selection, error) {
	s := selection{namespace: ns, labels: labels.Everything(), fields: fields.Everything()}
	var err error
	if opts.LabelSelector != "" {
		if s.labels, err = labels.Parse(opts.LabelSelector); err != nil {
			return s, apierrors.NewBadRequest(fmt.Sprintf("unable to parse requirement: %v", err))
		}
	}
	if opts.FieldSelector != "" {
		if s.fields, err = fields.ParseSelector(opts.FieldSelector); err != nil {
			return s, apierrors.NewBadRequest(fmt.Sprintf("invalid field selector: %v", err))
		}
	}
	return s, nil
}

// matches reports whether the object is in the namespace and satisfies both selectors.
func (s selection) matches(obj runtime.Object) bool {
	m, err := meta.Accessor(obj)
	if err != nil {
		return false
	}
	if s.namespace != "" && m.GetNamespace() != s.namespace {
		return false
	}
	if !s.labels.Empty() && !s.labels.Matches(labels.Set(m.GetLabels())) {
		return false
	}
	if s.fields.Empty() {
		return true
	}
	return s.fields.Matches(fieldSet(obj, m, s.fields))
}

// fieldSet resolves the fields the selector asks for: metadata.name and metadata.namespace always,
// others (spec.nodeName, status.phase, ...) by walking the object's JSON form along the path the
// field label maps to.
func fieldSet(obj runtime.Object, m metav1.Object, sel fields.Selector) fields.Set {
	set := fields.Set{"metadata.name": m.GetName(), "metadata.namespace": m.GetNamespace()}
	var content map[string]interface{}
	for _, r := range sel.Requirements() {
		if _, ok := set[r.Field]; ok {
			continue
		}
		if content == nil {
			if u, ok := obj.(*unstructured.Unstructured); ok {
				content = u.Object
			} else if c, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj); err == nil {
				content = c
			} else {
				content = map[string]interface{}{}
			}
		}
		path := r.Field
		if mapped, ok := fieldLabels(obj)[r.Field]; ok {
			path = mapped
		}
		if v, found, err := unstructured.NestedFieldNoCopy(content, strings.Split(path, ".")...); err == nil && found {
			switch v.(type) {
			case map[string]interface{}, []interface{}:
			default:
				set[r.Field] = fmt.Sprint(v)
			}
		}
	}
	return set
}
