package e2e_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// The tests' own scheme, codecs and parameter codec, as a generated clientset's scheme package has.
var (
	scheme         = runtime.NewScheme()
	codecs         = serializer.NewCodecFactory(scheme)
	parameterCodec = runtime.NewParameterCodec(scheme)
)

func init() {
	metav1.AddToGroupVersion(scheme, metav1.SchemeGroupVersion)
	utilruntime.Must(corev1.AddToScheme(scheme))
	utilruntime.Must(appsv1.AddToScheme(scheme))
}

// applyConfig is a typed apply configuration good for any kind: only the fields it sets are sent.
type applyConfig struct {
	APIVersion string            `json:"apiVersion,omitempty"`
	Kind       string            `json:"kind,omitempty"`
	Metadata   applyMetadata     `json:"metadata"`
	Data       map[string]string `json:"data,omitempty"`
	Spec       map[string]any    `json:"spec,omitempty"`
	Status     map[string]any    `json:"status,omitempty"`
}

type applyMetadata struct {
	Name      *string           `json:"name,omitempty"`
	Namespace *string           `json:"namespace,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
}

// GetName makes applyConfig an apply configuration for gentype.
func (a *applyConfig) GetName() *string { return a.Metadata.Name }

// configMapApply returns an apply configuration for the ConfigMap name carrying data.
func configMapApply(name string, data map[string]string) *applyConfig {
	return &applyConfig{APIVersion: "v1", Kind: "ConfigMap", Metadata: applyMetadata{Name: &name}, Data: data}
}

func configMap(name string, labels map[string]string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Data: data}
}

func deployment(name string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "example.com/app:1"}}},
			},
		},
	}
}

func newConfigMap() *corev1.ConfigMap         { return &corev1.ConfigMap{} }
func newConfigMapList() *corev1.ConfigMapList { return &corev1.ConfigMapList{} }
func newDeployment() *appsv1.Deployment       { return &appsv1.Deployment{} }
func newDeploymentList() *appsv1.DeploymentList {
	return &appsv1.DeploymentList{}
}
func newNamespace() *corev1.Namespace         { return &corev1.Namespace{} }
func newNamespaceList() *corev1.NamespaceList { return &corev1.NamespaceList{} }

// names returns the names of the items of a typed list.
func names[T any, P interface {
	*T
	metav1.Object
}](items []T) []string {
	out := make([]string, 0, len(items))
	for i := range items {
		out = append(out, P(&items[i]).GetName())
	}
	return out
}

// must turns a (value, error) result into the value, failing the test on an error:
// must(client.Get(...))(t).
func must[T any](value T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return value
	}
}
