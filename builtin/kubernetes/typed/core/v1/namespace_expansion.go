package v1

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
)

// NamespaceExpansion holds the Namespace calls that are not plain verbs.
type NamespaceExpansion interface {
	// Finalize replaces the spec.finalizers of a terminating namespace, as the namespace
	// controller does once it has deleted the namespace's content.
	Finalize(ctx context.Context, item *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error)
}

// Finalize puts item to the namespace's finalize subresource.
func (c *namespaces) Finalize(ctx context.Context, item *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error) {
	result := &corev1.Namespace{}
	err := c.GetClient().Put().Resource("namespaces").Name(item.Name).SubResource("finalize").
		VersionedParams(&opts, scheme.ParameterCodec).Body(item).Do(ctx).Into(result)
	return result, err
}
