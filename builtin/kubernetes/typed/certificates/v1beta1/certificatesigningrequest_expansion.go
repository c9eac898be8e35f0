package v1beta1

import (
	"context"

	certificatesv1beta1 "k8s.io/api/certificates/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
)

// CertificateSigningRequestExpansion holds the approval call of certificate signing requests.
type CertificateSigningRequestExpansion interface {
	// UpdateApproval replaces the approval conditions of a certificate signing request.
	UpdateApproval(ctx context.Context, certificateSigningRequest *certificatesv1beta1.CertificateSigningRequest, opts metav1.UpdateOptions) (*certificatesv1beta1.CertificateSigningRequest, error)
}

// UpdateApproval puts the request to its approval subresource.
func (c *certificateSigningRequests) UpdateApproval(ctx context.Context, certificateSigningRequest *certificatesv1beta1.CertificateSigningRequest, opts metav1.UpdateOptions) (*certificatesv1beta1.CertificateSigningRequest, error) {
	result := &certificatesv1beta1.CertificateSigningRequest{}
	err := c.GetClient().Put().Resource("certificatesigningrequests").Name(certificateSigningRequest.Name).
		SubResource("approval").VersionedParams(&opts, scheme.ParameterCodec).Body(certificateSigningRequest).Do(ctx).Into(result)
	return result, err
}
