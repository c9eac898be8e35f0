// Package gentypetest holds what the tests of gentype and its fake share: a scheme of the built-in types
// they use, an apply configuration good for any kind, and object constructors.
package gentypetest

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// The tests' own scheme, codecs and parameter codec, as a generated clientset's scheme package has.
var (
	Scheme         = runtime.NewScheme()
	Codecs         = serializer.NewCodecFactory(Scheme)
	ParameterCodec = runtime.NewParameterCodec(Scheme)
)

func init() {
	metav1.AddToGroupVersion(Scheme, metav1.SchemeGroupVersion)
	utilruntime.Must(corev1.AddToScheme(Scheme))
	utilruntime.Must(appsv1.AddToScheme(Scheme))
}

// ApplyConfig is a typed apply configuration good for any kind: only the fields it sets are sent.
type ApplyConfig struct {
	APIVersion string            `json:"apiVersion,omitempty"`
	Kind       string            `json:"kind,omitempty"`
	Metadata   ApplyMetadata     `json:"metadata"`
	Data       map[string]string `json:"data,omitempty"`
	Spec       map[string]any    `json:"spec,omitempty"`
	Status     map[string]any    `json:"status,omitempty"`
}

// ApplyMetadata is ApplyConfig's metadata.
type ApplyMetadata struct {
	Name      *string           `json:"name,omitempty"`
	Namespace *string           `json:"namespace,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
}

// GetName makes ApplyConfig an apply configuration for gentype.
func (a *ApplyConfig) GetName() *string { return a.Metadata.Name }

// ConfigMapApply returns an apply configuration for the ConfigMap name carrying data.
func ConfigMapApply(name string, data map[string]string) *ApplyConfig {
	return &ApplyConfig{APIVersion: "v1", Kind: "ConfigMap", Metadata: ApplyMetadata{Name: &name}, Data: data}
}

// ConfigMap returns a ConfigMap without namespace.
func ConfigMap(name string, labels map[string]string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Data: data}
}

// Deployment returns a valid Deployment of one container, without namespace.
func Deployment(name string) *appsv1.Deployment {
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

// NewConfigMap and the other New functions are the empty-object constructors gentype's clients take.
func NewConfigMap() *corev1.ConfigMap         { return &corev1.ConfigMap{} }
func NewConfigMapList() *corev1.ConfigMapList { return &corev1.ConfigMapList{} }
func NewDeployment() *appsv1.Deployment       { return &appsv1.Deployment{} }
func NewDeploymentList() *appsv1.DeploymentList {
	return &appsv1.DeploymentList{}
}
func NewNamespace() *corev1.Namespace         { return &corev1.Namespace{} }
func NewNamespaceList() *corev1.NamespaceList { return &corev1.NamespaceList{} }
