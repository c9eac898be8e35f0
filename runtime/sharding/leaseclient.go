package sharding

import (
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/runtime/gentype"
	"github.com/kgen-dev/kgen/runtime/rest"
)

var leaseScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := coordinationv1.AddToScheme(s); err != nil {
		panic(err)
	}
	metav1.AddToGroupVersion(s, coordinationv1.SchemeGroupVersion)
	return s
}()

// NewLeaseClient returns a LeaseClient for the Leases of namespace, built from a copy of config
// without its client-side rate limit. Membership's requests (a renewal
// and a list every RetryPeriod, a fence now and then) are bounded by RetryPeriod already; through a
// clientset the controller also uses, they would queue behind its reconciles in the shared rate
// limiter (client-go's default: 5 requests/s) and a busy controller could miss its renew deadline.
func NewLeaseClient(config *rest.Config, namespace string) (LeaseClient, error) {
	c := rest.CopyConfig(config)
	c.RateLimiter, c.QPS, c.Burst = nil, -1, 0
	client, err := rest.RESTClientForGroupVersion(c, "/apis", coordinationv1.SchemeGroupVersion, leaseScheme)
	if err != nil {
		return nil, err
	}
	return gentype.NewClientWithList[*coordinationv1.Lease, *coordinationv1.LeaseList]("leases", client,
		runtime.NewParameterCodec(leaseScheme), namespace,
		func() *coordinationv1.Lease { return &coordinationv1.Lease{} },
		func() *coordinationv1.LeaseList { return &coordinationv1.LeaseList{} }), nil
}
