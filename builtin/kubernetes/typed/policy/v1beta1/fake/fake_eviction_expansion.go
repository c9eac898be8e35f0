package fake

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"

	"github.com/kgen-dev/kgen/runtime/testing"
)

// Evict records a create action on the eviction subresource of the pod.
func (c *fakeEvictions) Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	pods := corev1.SchemeGroupVersion.WithResource("pods")
	_, err := c.Fake.Invokes(testing.NewCreateSubresourceAction(pods, eviction.Name, "eviction", c.Namespace(), eviction), eviction)
	return err
}
