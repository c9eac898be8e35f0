// Package builtin holds kgen's generated clientset, apply configurations, listers and informers for the
// built-in Kubernetes API (k8s.io/api), the counterparts of client-go's kubernetes, applyconfigurations,
// listers and informers packages: a controller using them ports by replacing the k8s.io/client-go/ import
// prefix with github.com/kgen-dev/kgen/builtin/.
//
// The clientset's Apply and ApplyStatus take the apply configurations, and its fake's NewClientset applies
// with the built-in schema. Hand-written files beside the generated ones (*_expansion.go) add client-go's
// hand-written expansions (Pods' Bind and Evict, Events' Search, EventSinkImpl, …).
//
// The go:generate lines below are the one definition of the generated code: hack/update-codegen.sh runs
// them, hack/verify-codegen.sh runs them with --verify.
package builtin

//go:generate go run ../cmd/applyconfiguration-gen --go-header-file ../hack/boilerplate.go.txt --output-dir ./applyconfigurations --output-pkg github.com/kgen-dev/kgen/builtin/applyconfigurations k8s.io/api/...
//go:generate go run ../cmd/client-gen --go-header-file ../hack/boilerplate.go.txt --output-dir . --output-pkg github.com/kgen-dev/kgen/builtin --clientset-name kubernetes --apply-configuration-package github.com/kgen-dev/kgen/builtin/applyconfigurations --plural-exceptions Endpoints:Endpoints --input-base k8s.io/api --input admissionregistration/v1,admissionregistration/v1alpha1,admissionregistration/v1beta1,apiserverinternal/v1alpha1,apps/v1,apps/v1beta1,apps/v1beta2,authentication/v1,authentication/v1alpha1,authentication/v1beta1,authorization/v1,authorization/v1beta1,autoscaling/v1,autoscaling/v2,batch/v1,batch/v1beta1,certificates/v1,certificates/v1alpha1,certificates/v1beta1,coordination/v1,coordination/v1alpha2,coordination/v1beta1,core/v1,discovery/v1,discovery/v1beta1,events/v1,events/v1beta1,extensions/v1beta1,flowcontrol/v1,flowcontrol/v1beta1,flowcontrol/v1beta2,flowcontrol/v1beta3,lifecycle/v1alpha1,networking/v1,networking/v1beta1,node/v1,node/v1alpha1,node/v1beta1,policy/v1,policy/v1beta1,rbac/v1,rbac/v1alpha1,rbac/v1beta1,resource/v1,resource/v1alpha3,resource/v1beta1,resource/v1beta2,scheduling/v1,scheduling/v1alpha3,scheduling/v1beta1,storage/v1,storage/v1alpha1,storage/v1beta1,storagemigration/v1,storagemigration/v1beta1
//go:generate go run ../cmd/lister-gen --go-header-file ../hack/boilerplate.go.txt --output-dir ./listers --output-pkg github.com/kgen-dev/kgen/builtin/listers --plural-exceptions Endpoints:Endpoints k8s.io/api/...
//go:generate go run ../cmd/informer-gen --go-header-file ../hack/boilerplate.go.txt --output-dir ./informers --output-pkg github.com/kgen-dev/kgen/builtin/informers --single-directory --versioned-clientset-package github.com/kgen-dev/kgen/builtin/kubernetes --listers-package github.com/kgen-dev/kgen/builtin/listers --plural-exceptions Endpoints:Endpoints k8s.io/api/...
