package testing_test

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/watch"

	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

var (
	scheme = runtime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme)

	podResource    = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	secretResource = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	cmKind         = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	podKind        = schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
)

func init() {
	if err := corev1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if err := appsv1.AddToScheme(scheme); err != nil {
		panic(err)
	}
}

// client is a fake clientset wired exactly as generated fake clientsets wire theirs.
type client struct {
	ktesting.Fake
	tracker ktesting.ObjectTracker
	t       *testing.T
}

func newClient(t *testing.T, objs ...runtime.Object) *client {
	return wire(t, ktesting.NewObjectTracker(scheme, codecs.UniversalDecoder()), objs...)
}

func newManagedClient(t *testing.T, objs ...runtime.Object) *client {
	return wire(t, ktesting.NewFieldManagedObjectTracker(scheme, codecs.UniversalDecoder(), managedfields.NewDeducedTypeConverter()), objs...)
}

func wire(t *testing.T, o ktesting.ObjectTracker, objs ...runtime.Object) *client {
	for _, obj := range objs {
		if err := o.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	c := &client{tracker: o, t: t}
	c.AddReactor("*", "*", ktesting.ObjectReaction(o))
	c.AddWatchReactor("*", func(action ktesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if wa, ok := action.(ktesting.WatchActionImpl); ok {
			opts = wa.ListOptions
		}
		w, err := o.Watch(action.GetResource(), action.GetNamespace(), opts)
		return err == nil, w, err
	})
	return c
}

func (c *client) createCM(cm *corev1.ConfigMap) (*corev1.ConfigMap, error) {
	obj, err := c.Invokes(ktesting.NewCreateActionWithOptions(cmResource, cm.Namespace, cm, metav1.CreateOptions{}), &corev1.ConfigMap{})
	return asCM(obj, err)
}

func (c *client) getCM(ns, name string) (*corev1.ConfigMap, error) {
	obj, err := c.Invokes(ktesting.NewGetActionWithOptions(cmResource, ns, name, metav1.GetOptions{}), &corev1.ConfigMap{})
	return asCM(obj, err)
}

func (c *client) updateCM(cm *corev1.ConfigMap) (*corev1.ConfigMap, error) {
	obj, err := c.Invokes(ktesting.NewUpdateActionWithOptions(cmResource, cm.Namespace, cm, metav1.UpdateOptions{}), &corev1.ConfigMap{})
	return asCM(obj, err)
}

func (c *client) patchCM(ns, name string, pt types.PatchType, data string) (*corev1.ConfigMap, error) {
	obj, err := c.Invokes(ktesting.NewPatchSubresourceActionWithOptions(cmResource, ns, name, pt, []byte(data), metav1.PatchOptions{}), &corev1.ConfigMap{})
	return asCM(obj, err)
}

func (c *client) applyCM(ns, name, data, manager string, force bool) (*corev1.ConfigMap, error) {
	opts := metav1.PatchOptions{FieldManager: manager, Force: &force}
	obj, err := c.Invokes(ktesting.NewPatchSubresourceActionWithOptions(cmResource, ns, name, types.ApplyYAMLPatchType, []byte(data), opts), &corev1.ConfigMap{})
	return asCM(obj, err)
}

func (c *client) deleteCM(ns, name string, opts metav1.DeleteOptions) error {
	_, err := c.Invokes(ktesting.NewDeleteActionWithOptions(cmResource, ns, name, opts), &corev1.ConfigMap{})
	return err
}

func (c *client) listCM(ns string, opts metav1.ListOptions) (*corev1.ConfigMapList, error) {
	obj, err := c.Invokes(ktesting.NewListActionWithOptions(cmResource, cmKind, ns, opts), &corev1.ConfigMapList{})
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.ConfigMapList), nil
}

func (c *client) watchCM(ns string, opts metav1.ListOptions) (watch.Interface, error) {
	return c.InvokesWatch(ktesting.NewWatchActionWithOptions(cmResource, ns, opts))
}

func (c *client) createPod(p *corev1.Pod) (*corev1.Pod, error) {
	obj, err := c.Invokes(ktesting.NewCreateActionWithOptions(podResource, p.Namespace, p, metav1.CreateOptions{}), &corev1.Pod{})
	return asPod(obj, err)
}

func (c *client) updatePod(p *corev1.Pod, subresource string) (*corev1.Pod, error) {
	obj, err := c.Invokes(ktesting.NewUpdateSubresourceActionWithOptions(podResource, subresource, p.Namespace, p, metav1.UpdateOptions{}), &corev1.Pod{})
	return asPod(obj, err)
}

func (c *client) patchPod(ns, name string, pt types.PatchType, data string, subresources ...string) (*corev1.Pod, error) {
	obj, err := c.Invokes(ktesting.NewPatchSubresourceActionWithOptions(podResource, ns, name, pt, []byte(data), metav1.PatchOptions{}, subresources...), &corev1.Pod{})
	return asPod(obj, err)
}

func asCM(obj runtime.Object, err error) (*corev1.ConfigMap, error) {
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.ConfigMap), nil
}

func asPod(obj runtime.Object, err error) (*corev1.Pod, error) {
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.Pod), nil
}

func cm(ns, name string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: data}
}

func pod(ns, name string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func wantStatus(t *testing.T, err error, code int32, reason metav1.StatusReason) {
	t.Helper()
	status, ok := err.(apierrors.APIStatus)
	if !ok {
		t.Fatalf("error %v (%T) is not an API status", err, err)
	}
	if s := status.Status(); s.Code != code || s.Reason != reason {
		t.Fatalf("got status %d %s (%s), want %d %s", s.Code, s.Reason, s.Message, code, reason)
	}
}

// next returns the next event or fails after a second.
func next(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed")
		}
		return ev
	case <-time.After(time.Second):
		t.Fatal("no event within a second")
	}
	return watch.Event{}
}

// none asserts no event arrives for a short while.
func none(t *testing.T, w watch.Interface) {
	t.Helper()
	select {
	case ev := <-w.ResultChan():
		t.Fatalf("unexpected event %s %v", ev.Type, ev.Object)
	case <-time.After(50 * time.Millisecond):
	}
}

func nameOf(obj runtime.Object) string {
	return obj.(metav1.Object).GetName()
}

func newPodWatch(opts metav1.ListOptions) ktesting.WatchActionImpl {
	return ktesting.NewWatchActionWithOptions(podResource, "", opts)
}
