package sharding

import (
	coordinationv1client "github.com/kgen-dev/kgen/builtin/kubernetes/typed/coordination/v1"
	"github.com/kgen-dev/kgen/runtime/rest"
)

// NewLeaseClient returns a LeaseClient for the Leases of namespace, built from a copy of config
// without its client-side rate limit. Membership's requests (a renewal
// and a list every RetryPeriod, a fence now and then) are bounded by RetryPeriod already; through a
// clientset the controller also uses, they would queue behind its reconciles in the shared rate
// limiter (client-go's default: 5 requests/s) and a busy controller could miss its renew deadline.
func NewLeaseClient(config *rest.Config, namespace string) (LeaseClient, error) {
	c := rest.CopyConfig(config)
	c.RateLimiter, c.QPS, c.Burst = nil, -1, 0
	client, err := coordinationv1client.NewForConfig(c)
	if err != nil {
		return nil, err
	}
	return client.Leases(namespace), nil
}
