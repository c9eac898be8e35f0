package testing

import (
	"slices"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateMeta checks the object metadata every kind shares, as the server does on create and
// update: the name's format (when checkName is set), the namespace's, labels, annotations, owner
// references and finalizers. An owner reference without a uid passes when uidOptional says the test cannot know it (see
// ObjectTracker.Add).
func validateMeta(obj runtime.Object, m metav1.Object, checkName bool, uidOptional func(metav1.OwnerReference) bool) field.ErrorList {
	path := field.NewPath("metadata")
	var errs field.ErrorList
	if checkName {
		for _, msg := range nameValidator(obj)(m.GetName(), false) {
			errs = append(errs, field.Invalid(path.Child("name"), m.GetName(), msg))
		}
	}
	if ns := m.GetNamespace(); ns != "" {
		for _, msg := range apivalidation.ValidateNamespaceName(ns, false) {
			errs = append(errs, field.Invalid(path.Child("namespace"), ns, msg))
		}
	}
	errs = append(errs, metav1validation.ValidateLabels(m.GetLabels(), path.Child("labels"))...)
	errs = append(errs, apivalidation.ValidateAnnotations(m.GetAnnotations(), path.Child("annotations"))...)
	refs := slices.Clone(m.GetOwnerReferences())
	for i, ref := range refs {
		if ref.UID == "" && uidOptional(ref) {
			refs[i].UID = "uid-the-test-cannot-know" // validated as present; the object keeps its reference as sent
		}
	}
	errs = append(errs, apivalidation.ValidateOwnerReferences(refs, path.Child("ownerReferences"))...)
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
