package fake

import (
	"context"

	certificatesv1beta1 "k8s.io/api/certificates/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/runtime/testing"
)

// UpdateApproval records an update of the request's approval subresource and returns the reactors' request.
func (c *fakeCertificateSigningRequests) UpdateApproval(ctx context.Context, certificateSigningRequest *certificatesv1beta1.CertificateSigningRequest, opts metav1.UpdateOptions) (*certificatesv1beta1.CertificateSigningRequest, error) {
	obj, err := c.Fake.Invokes(testing.NewRootUpdateSubresourceActionWithOptions(c.Resource(), "approval", certificateSigningRequest, opts), certificateSigningRequest)
	if obj == nil {
		return nil, err
	}
	return obj.(*certificatesv1beta1.CertificateSigningRequest), err
}
