package v1beta1

import (
	"context"

	extensionsv1beta1 "k8s.io/api/extensions/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
)

// DeploymentExpansion holds the rollback call of extensions/v1beta1 Deployments, an API servers no
// longer serve.
type DeploymentExpansion interface {
	// Rollback asks to roll a deployment back to a previous revision.
	Rollback(ctx context.Context, rollback *extensionsv1beta1.DeploymentRollback, opts metav1.CreateOptions) error
}

// Rollback posts rollback to the deployment's rollback subresource.
func (c *deployments) Rollback(ctx context.Context, rollback *extensionsv1beta1.DeploymentRollback, opts metav1.CreateOptions) error {
	return c.GetClient().Post().Namespace(c.GetNamespace()).Resource("deployments").Name(rollback.Name).
		SubResource("rollback").VersionedParams(&opts, scheme.ParameterCodec).Body(rollback).Do(ctx).Error()
}
