package fake

import (
	"context"

	extensionsv1beta1 "k8s.io/api/extensions/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/runtime/testing"
)

// Rollback records a create action on the deployment's rollback subresource.
func (c *fakeDeployments) Rollback(ctx context.Context, rollback *extensionsv1beta1.DeploymentRollback, opts metav1.CreateOptions) error {
	_, err := c.Fake.Invokes(testing.NewCreateSubresourceActionWithOptions(c.Resource(), rollback.Name, "rollback", c.Namespace(), rollback, opts), rollback)
	return err
}
