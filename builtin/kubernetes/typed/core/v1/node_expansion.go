package v1

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// NodeExpansion holds the Node calls that are not plain verbs.
type NodeExpansion interface {
	// PatchStatus applies the strategic merge patch data to the status of the node nodeName.
	PatchStatus(ctx context.Context, nodeName string, data []byte) (*corev1.Node, error)
}

// PatchStatus applies a strategic merge patch to the node's status subresource.
func (c *nodes) PatchStatus(ctx context.Context, nodeName string, data []byte) (*corev1.Node, error) {
	result := &corev1.Node{}
	err := c.GetClient().Patch(types.StrategicMergePatchType).Resource("nodes").Name(nodeName).
		SubResource("status").Body(data).Do(ctx).Into(result)
	return result, err
}
