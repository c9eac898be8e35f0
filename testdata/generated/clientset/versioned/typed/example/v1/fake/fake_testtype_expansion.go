package fake

import (
	"context"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	examplev1 "github.com/kgen-dev/kgen/testdata/apis/example/v1"
)

// GetOrNil returns the named TestType, or nil if it does not exist.
func (c *fakeTestTypes) GetOrNil(ctx context.Context, name string) (*examplev1.TestType, error) {
	obj, err := c.Get(ctx, name, metav1.GetOptions{})
	if errors.IsNotFound(err) {
		return nil, nil
	}
	return obj, err
}
