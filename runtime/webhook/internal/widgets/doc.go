// Package widgets holds hand-written test API types for the webhook tests: the
// kind Widget in three versions converting through a hub (v1 is the hub,
// v1beta1 and v1alpha1 convert to and from it), and the kind Gadget in two
// versions converting through an internal version registered with
// Scheme.AddConversionFunc, as conversion-gen's output does. Widget v1 has
// registered defaults. Scheme holds them all.
package widgets

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Group is the API group of the test kinds.
const Group = "widgets.webhook.kgen.dev"

// Group versions.
var (
	V1       = schema.GroupVersion{Group: Group, Version: "v1"}
	V1beta1  = schema.GroupVersion{Group: Group, Version: "v1beta1"}
	V1alpha1 = schema.GroupVersion{Group: Group, Version: "v1alpha1"}
	V2       = schema.GroupVersion{Group: Group, Version: "v2"}
	Internal = schema.GroupVersion{Group: Group, Version: runtime.APIVersionInternal}
)

// NewScheme registers every type, conversion and defaulter of the package.
func NewScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, t := range []struct {
		gv   schema.GroupVersion
		kind string
		obj  runtime.Object
	}{
		{V1, "Widget", &Widget{}}, {V1, "WidgetList", &WidgetList{}},
		{V1beta1, "Widget", &WidgetV1beta1{}}, {V1beta1, "WidgetList", &WidgetV1beta1List{}},
		{V1alpha1, "Widget", &WidgetV1alpha1{}}, {V1alpha1, "WidgetList", &WidgetV1alpha1List{}},
		{V1, "Gadget", &GadgetV1{}}, {V1, "GadgetList", &GadgetV1List{}},
		{V2, "Gadget", &GadgetV2{}}, {V2, "GadgetList", &GadgetV2List{}},
		{Internal, "Gadget", &GadgetInternal{}},
	} {
		s.AddKnownTypeWithName(t.gv.WithKind(t.kind), t.obj)
	}
	for _, gv := range []schema.GroupVersion{V1, V1beta1, V1alpha1, V2} {
		metav1.AddToGroupVersion(s, gv)
	}
	if err := registerGadgetConversions(s); err != nil {
		panic(err)
	}
	s.AddTypeDefaultingFunc(&Widget{}, func(obj any) { SetDefaultsWidget(obj.(*Widget)) })
	return s
}
