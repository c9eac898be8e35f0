package fake

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/runtime/testing"
)

// Finalize records an update of the namespace's finalize subresource and returns the reactors' Namespace.
func (c *fakeNamespaces) Finalize(ctx context.Context, item *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error) {
	obj, err := c.Fake.Invokes(testing.NewRootUpdateSubresourceActionWithOptions(c.Resource(), "finalize", item, opts), item)
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.Namespace), err
}
