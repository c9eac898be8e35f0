package fake

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kgen-dev/kgen/runtime/testing"
)

// PatchStatus records a strategic merge patch of the node's status and returns the reactors' Node.
func (c *fakeNodes) PatchStatus(ctx context.Context, nodeName string, data []byte) (*corev1.Node, error) {
	obj, err := c.Fake.Invokes(testing.NewRootPatchSubresourceAction(c.Resource(), nodeName, types.StrategicMergePatchType, data, "status"), &corev1.Node{})
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.Node), err
}
