// Package testdata holds the API packages the generators are tested on (apis/, and applyapis/ with
// every field shape applyconfiguration-gen maps), CRDs for the e2e tests (crds/) and the committed
// generated code (applyconfiguration/ and generated/). The go:generate lines below are the one
// definition of how it is generated: hack/update-codegen.sh runs them, and generators/golden_test.go runs
// them in process with --verify.
package testdata

//go:generate go run ../cmd/deepcopy-gen --output-file zz_generated.deepcopy.go --go-header-file ../hack/boilerplate.go.txt ./apis/... ./applyapis/...
//go:generate go run ../cmd/register-gen --output-file zz_generated.register.go --go-header-file ../hack/boilerplate.go.txt ./apis/...
//go:generate go run ../cmd/applyconfiguration-gen --go-header-file ../hack/boilerplate.go.txt --output-dir ./applyconfiguration --output-pkg github.com/kgen-dev/kgen/testdata/applyconfiguration --external-applyconfigurations k8s.io/api/core/v1.PodTemplateSpec:github.com/kgen-dev/kgen/builtin/applyconfigurations/core/v1 ./apis/... ./applyapis/... k8s.io/api/autoscaling/v1
//go:generate go run ../cmd/client-gen --go-header-file ../hack/boilerplate.go.txt --output-dir ./generated/clientset --output-pkg github.com/kgen-dev/kgen/testdata/generated/clientset --clientset-name versioned --input-base ./apis --input example/v1,example/v1beta1,example2/v1,hyphen-group/v1,example3.io/v1,MixedCase/v1,pointeritems/v1 --plural-exceptions Fish:Fish
//go:generate go run ../cmd/client-gen --go-header-file ../hack/boilerplate.go.txt --output-dir ./generated/applyclientset --output-pkg github.com/kgen-dev/kgen/testdata/generated/applyclientset --clientset-name versioned --input-base ./apis --input example/v1 --apply-configuration-package github.com/kgen-dev/kgen/testdata/applyconfiguration
//go:generate go run ../cmd/lister-gen --go-header-file ../hack/boilerplate.go.txt --output-dir ./generated/listers --output-pkg github.com/kgen-dev/kgen/testdata/generated/listers --plural-exceptions Fish:Fish ./apis/...
//go:generate go run ../cmd/informer-gen --go-header-file ../hack/boilerplate.go.txt --output-dir ./generated/informers --output-pkg github.com/kgen-dev/kgen/testdata/generated/informers --versioned-clientset-package github.com/kgen-dev/kgen/testdata/generated/clientset/versioned --listers-package github.com/kgen-dev/kgen/testdata/generated/listers --plural-exceptions Fish:Fish ./apis/...
