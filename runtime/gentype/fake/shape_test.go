package fake_test

import (
	"context"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/gentype"
	gentypefake "github.com/kgen-dev/kgen/runtime/gentype/fake"
	"github.com/kgen-dev/kgen/runtime/gentype/internal/gentypetest"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

// configMapInterface is the interface client-gen emits for a namespaced type with every verb.
type configMapInterface interface {
	Create(ctx context.Context, configMap *corev1.ConfigMap, opts metav1.CreateOptions) (*corev1.ConfigMap, error)
	Update(ctx context.Context, configMap *corev1.ConfigMap, opts metav1.UpdateOptions) (*corev1.ConfigMap, error)
	UpdateStatus(ctx context.Context, configMap *corev1.ConfigMap, opts metav1.UpdateOptions) (*corev1.ConfigMap, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
	DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.ConfigMap, error)
	List(ctx context.Context, opts metav1.ListOptions) (*corev1.ConfigMapList, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (result *corev1.ConfigMap, err error)
	Apply(ctx context.Context, configMap *gentypetest.ApplyConfig, opts metav1.ApplyOptions) (result *corev1.ConfigMap, err error)
	ApplyStatus(ctx context.Context, configMap *gentypetest.ApplyConfig, opts metav1.ApplyOptions) (result *corev1.ConfigMap, err error)
}

// configMapReader is the interface client-gen emits for a type limited to get, list and watch.
type configMapReader interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.ConfigMap, error)
	List(ctx context.Context, opts metav1.ListOptions) (*corev1.ConfigMapList, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// configMapApplier is the interface client-gen emits for a type with apply but without list.
type configMapApplier interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.ConfigMap, error)
	Apply(ctx context.Context, configMap *gentypetest.ApplyConfig, opts metav1.ApplyOptions) (result *corev1.ConfigMap, err error)
}

// The structs below have the shape client-gen emits; the assignments prove that embedding the
// gentype clients satisfies the generated interfaces and leaves the generated fake's Fake field usable.
type (
	configMapsClient struct {
		*gentype.ClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *gentypetest.ApplyConfig]
	}
	configMapsReaderClient struct {
		*gentype.ClientWithList[*corev1.ConfigMap, *corev1.ConfigMapList]
	}
	configMapsApplierClient struct {
		*gentype.ClientWithApply[*corev1.ConfigMap, *gentypetest.ApplyConfig]
	}
	fakeGroup struct{ *ktesting.Fake }

	fakeConfigMapsClient struct {
		*gentypefake.FakeClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *gentypetest.ApplyConfig]
		Fake *fakeGroup
	}
	fakeConfigMapsReaderClient struct {
		*gentypefake.FakeClientWithList[*corev1.ConfigMap, *corev1.ConfigMapList]
		Fake *fakeGroup
	}
	fakeConfigMapsApplierClient struct {
		*gentypefake.FakeClientWithApply[*corev1.ConfigMap, *gentypetest.ApplyConfig]
		Fake *fakeGroup
	}
)

var (
	_ configMapInterface = configMapsClient{}
	_ configMapReader    = configMapsReaderClient{}
	_ configMapApplier   = configMapsApplierClient{}
	_ configMapInterface = fakeConfigMapsClient{}
	_ configMapReader    = fakeConfigMapsReaderClient{}
	_ configMapApplier   = fakeConfigMapsApplierClient{}
)

// An extension verb in a generated fake records through the group fake and reads the embedded
// client's namespace and resource; this compiles only if those names resolve as generated code expects.
func (c *fakeConfigMapsClient) getExtension(ctx context.Context, name string) (*corev1.ConfigMap, error) {
	obj, err := c.Fake.Invokes(ktesting.NewGetSubresourceActionWithOptions(c.Resource(), c.Namespace(), "extension", name, metav1.GetOptions{}), &corev1.ConfigMap{})
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.ConfigMap), err
}

func TestGeneratedFakeShapeRecordsExtensionVerbs(t *testing.T) {
	fake, _ := newFake()
	client := &fakeConfigMapsClient{fakeConfigMaps(fake, "ns"), &fakeGroup{fake}}
	if _, err := client.getExtension(context.Background(), "a"); err == nil {
		t.Error("extension get of a missing object succeeded")
	}
	want := []recorded{{"get", "ns", "configmaps", "extension"}}
	if got := recordedActions(fake); !slices.Equal(got, want) {
		t.Errorf("recorded %v, want %v", got, want)
	}
}
