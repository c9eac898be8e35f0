package v1beta1

import (
	"context"

	policyv1beta1 "k8s.io/api/policy/v1beta1"
)

// EvictionExpansion holds the eviction call: evictions are posted to a pod's eviction subresource.
type EvictionExpansion interface {
	// Evict asks to evict the pod eviction.Name in eviction.Namespace, honouring its disruption budgets.
	Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error
}

// Evict posts eviction to the eviction subresource of its pod.
func (c *evictions) Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	return c.GetClient().Post().AbsPath("/api/v1").Namespace(eviction.Namespace).Resource("pods").
		Name(eviction.Name).SubResource("eviction").Body(eviction).Do(ctx).Error()
}
