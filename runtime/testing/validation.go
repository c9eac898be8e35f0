package testing

import (
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateMeta checks the object metadata every kind shares, as the server does on create and
// update: the name's format, the namespace's, labels, annotations, owner references and finalizers.
func validateMeta(obj runtime.Object, m metav1.Object) field.ErrorList {
	path := field.NewPath("metadata")
	var errs field.ErrorList
	for _, msg := range nameValidator(obj)(m.GetName(), false) {
		errs = append(errs, field.Invalid(path.Child("name"), m.GetName(), msg))
	}
	if ns := m.GetNamespace(); ns != "" {
		for _, msg := range apivalidation.ValidateNamespaceName(ns, false) {
			errs = append(errs, field.Invalid(path.Child("namespace"), ns, msg))
		}
	}
	errs = append(errs, metav1validation.ValidateLabels(m.GetLabels(), path.Child("labels"))...)
	errs = append(errs, apivalidation.ValidateAnnotations(m.GetAnnotations(), path.Child("annotations"))...)
	errs = append(errs, apivalidation.ValidateOwnerReferences(m.GetOwnerReferences(), path.Child("ownerReferences"))...)
	return append(errs, apivalidation.ValidateFinalizers(m.GetFinalizers(), path.Child("finalizers"))...)
}

// nameValidator returns the kind's name rule: DNS labels for Namespaces and Services, DNS
// subdomains for everything else, custom resources included.
func nameValidator(obj runtime.Object) apivalidation.ValidateNameFunc {
	switch goTypeName(obj) {
	case "k8s.io/api/core/v1.Namespace":
		return apivalidation.NameIsDNSLabel
	case "k8s.io/api/core/v1.Service":
		return apivalidation.NameIsDNS1035Label
	}
	return apivalidation.NameIsDNSSubdomain
}
