package v1

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	examplev1 "github.com/kgen-dev/kgen/testdata/apis/example/v1"
)

// TestTypeExpansion is hand-written: it replaces the generated empty expansion interface.
type TestTypeExpansion interface {
	// GetOrNil returns the named TestType, or nil if it does not exist.
	GetOrNil(ctx context.Context, name string) (*examplev1.TestType, error)
}

// GetOrNil returns the named TestType, or nil if it does not exist.
func (c *testTypes) GetOrNil(ctx context.Context, name string) (*examplev1.TestType, error) {
	list, err := c.List(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + name})
	if err != nil || len(list.Items) == 0 {
		return nil, err
	}
	return &list.Items[0], nil
}
