package fidelity_test

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/kgen-dev/kgen/builtin/applyconfigurations"
	"github.com/kgen-dev/kgen/runtime/rest"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{CRDs: []any{widgetCRD}}, &env))
}

var (
	scheme         = runtime.NewScheme()
	codecs         = serializer.NewCodecFactory(scheme)
	parameterCodec = runtime.NewParameterCodec(scheme)
)

func init() {
	if err := corev1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if err := appsv1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if err := autoscalingv1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	scheme.AddKnownTypes(widgetKind.GroupVersion(), &Widget{}, &WidgetList{})
	metav1.AddToGroupVersion(scheme, widgetKind.GroupVersion())
}

// backend is the request surface the scenarios drive: the same calls go to the fake tracker and to a
// real kube-apiserver. Resources are core/v1 plurals.
type backend interface {
	// newNamespace returns a namespace no other scenario uses.
	newNamespace(ctx context.Context) (string, error)
	create(ctx context.Context, res, ns string, obj runtime.Object, opts metav1.CreateOptions, into runtime.Object) error
	get(ctx context.Context, res, ns, name string, into runtime.Object) error
	getSubresource(ctx context.Context, res, subresource, ns, name string, into runtime.Object) error
	update(ctx context.Context, res, subresource, ns string, obj, into runtime.Object) error
	patch(ctx context.Context, res, subresource, ns, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, into runtime.Object) error
	delete(ctx context.Context, res, ns, name string, opts metav1.DeleteOptions) error
	deleteCollection(ctx context.Context, res, ns string, opts metav1.ListOptions) error
	list(ctx context.Context, res, ns string, opts metav1.ListOptions, into runtime.Object) error
	watch(ctx context.Context, res, ns string, opts metav1.ListOptions) (watch.Interface, error)
}

// kinds maps the resources the scenarios use to their kinds, for the fake's list actions.
var kinds = map[string]schema.GroupVersionKind{
	"configmaps":  {Version: "v1", Kind: "ConfigMap"},
	"secrets":     {Version: "v1", Kind: "Secret"},
	"pods":        {Version: "v1", Kind: "Pod"},
	"deployments": {Group: "apps", Version: "v1", Kind: "Deployment"},
	"namespaces":  {Version: "v1", Kind: "Namespace"},
	"widgets":     widgetKind,
}

// fakeBackend is a Fake wired like a generated NewClientset: a field-managed tracker behind
// ObjectReaction and a watch reactor.
type fakeBackend struct {
	fake ktesting.Fake
}

func newFakeBackend() *fakeBackend {
	o := ktesting.NewFieldManagedObjectTracker(scheme, codecs.UniversalDecoder(), typeConverter{
		builtin: applyconfigurations.NewTypeConverter(scheme), widgets: managedfields.NewDeducedTypeConverter()})
	b := &fakeBackend{}
	b.fake.AddReactor("*", "*", ktesting.ObjectReaction(o))
	b.fake.AddWatchReactor("*", func(action ktesting.Action) (bool, watch.Interface, error) {
		opts := action.(ktesting.WatchActionImpl).ListOptions
		w, err := o.Watch(action.GetResource(), action.GetNamespace(), opts)
		return err == nil, w, err
	})
	return b
}

// typeConverter types built-in objects with the schema of builtin/applyconfigurations, as a generated
// NewClientset does, and Widgets (which have no apply configurations) by deduction.
type typeConverter struct{ builtin, widgets managedfields.TypeConverter }

func (c typeConverter) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	if gvks, _, err := scheme.ObjectKinds(obj); err == nil && gvks[0].Group == widgetKind.Group {
		return c.widgets.ObjectToTyped(obj, opts...)
	}
	return c.builtin.ObjectToTyped(obj, opts...)
}

func (c typeConverter) TypedToObject(value *typed.TypedValue) (runtime.Object, error) {
	return c.builtin.TypedToObject(value)
}

func gvr(res string) schema.GroupVersionResource { return kinds[res].GroupVersion().WithResource(res) }

// copyInto sets into to the object the fake returned.
func copyInto(obj runtime.Object, err error, into runtime.Object) error {
	if err != nil {
		return err
	}
	if into == nil {
		return nil
	}
	if reflect.TypeOf(obj) != reflect.TypeOf(into) {
		return fmt.Errorf("fake returned %T, want %T", obj, into)
	}
	reflect.ValueOf(into).Elem().Set(reflect.ValueOf(obj).Elem())
	return nil
}

func (b *fakeBackend) newNamespace(context.Context) (string, error) {
	return "fid-" + rand.String(6), nil
}

func (b *fakeBackend) create(_ context.Context, res, ns string, obj runtime.Object, opts metav1.CreateOptions, into runtime.Object) error {
	out, err := b.fake.Invokes(ktesting.NewCreateActionWithOptions(gvr(res), ns, obj, opts), nil)
	return copyInto(out, err, into)
}

func (b *fakeBackend) get(_ context.Context, res, ns, name string, into runtime.Object) error {
	obj, err := b.fake.Invokes(ktesting.NewGetActionWithOptions(gvr(res), ns, name, metav1.GetOptions{}), nil)
	return copyInto(obj, err, into)
}

func (b *fakeBackend) getSubresource(_ context.Context, res, sub, ns, name string, into runtime.Object) error {
	obj, err := b.fake.Invokes(ktesting.NewGetSubresourceAction(gvr(res), ns, sub, name), nil)
	return copyInto(obj, err, into)
}

func (b *fakeBackend) update(_ context.Context, res, sub, ns string, obj, into runtime.Object) error {
	out, err := b.fake.Invokes(ktesting.NewUpdateSubresourceActionWithOptions(gvr(res), sub, ns, obj, metav1.UpdateOptions{}), nil)
	return copyInto(out, err, into)
}

func (b *fakeBackend) patch(_ context.Context, res, sub, ns, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, into runtime.Object) error {
	var subs []string
	if sub != "" {
		subs = []string{sub}
	}
	obj, err := b.fake.Invokes(ktesting.NewPatchSubresourceActionWithOptions(gvr(res), ns, name, pt, data, opts, subs...), nil)
	return copyInto(obj, err, into)
}

func (b *fakeBackend) delete(_ context.Context, res, ns, name string, opts metav1.DeleteOptions) error {
	_, err := b.fake.Invokes(ktesting.NewDeleteActionWithOptions(gvr(res), ns, name, opts), nil)
	return err
}

func (b *fakeBackend) deleteCollection(_ context.Context, res, ns string, opts metav1.ListOptions) error {
	_, err := b.fake.Invokes(ktesting.NewDeleteCollectionActionWithOptions(gvr(res), ns, metav1.DeleteOptions{}, opts), nil)
	return err
}

func (b *fakeBackend) list(_ context.Context, res, ns string, opts metav1.ListOptions, into runtime.Object) error {
	obj, err := b.fake.Invokes(ktesting.NewListActionWithOptions(gvr(res), kinds[res], ns, opts), nil)
	return copyInto(obj, err, into)
}

func (b *fakeBackend) watch(_ context.Context, res, ns string, opts metav1.ListOptions) (watch.Interface, error) {
	return b.fake.InvokesWatch(ktesting.NewWatchActionWithOptions(gvr(res), ns, opts))
}

// decode stores the response in into, replacing its whole content (decoding into a used object
// would keep fields the response lacks).
func decode(result rest.Result, into runtime.Object) error {
	fresh := reflect.New(reflect.TypeOf(into).Elem()).Interface().(runtime.Object)
	if err := result.Into(fresh); err != nil {
		return err
	}
	reflect.ValueOf(into).Elem().Set(reflect.ValueOf(fresh).Elem())
	return nil
}

// serverBackend talks to the real kube-apiserver with runtime/rest, one client per group version.
type serverBackend struct {
	clients map[schema.GroupVersion]*rest.RESTClient
}

func newServerBackend() (*serverBackend, error) {
	b := &serverBackend{clients: map[schema.GroupVersion]*rest.RESTClient{}}
	for _, gvk := range kinds {
		gv := gvk.GroupVersion()
		if b.clients[gv] != nil {
			continue
		}
		cfg := rest.CopyConfig(env.Config())
		cfg.QPS = -1
		cfg.APIPath = "/apis"
		if gv.Group == "" {
			cfg.APIPath = "/api"
		}
		cfg.GroupVersion = &gv
		cfg.NegotiatedSerializer = codecs.WithoutConversion()
		cfg.ContentType = runtime.ContentTypeJSON
		c, err := rest.RESTClientFor(cfg)
		if err != nil {
			return nil, err
		}
		b.clients[gv] = c
	}
	return b, nil
}

// c returns the client serving the resource.
func (b *serverBackend) c(res string) *rest.RESTClient { return b.clients[kinds[res].GroupVersion()] }

func (b *serverBackend) newNamespace(ctx context.Context) (string, error) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "fid-" + rand.String(6)}}
	return ns.Name, b.c("namespaces").Post().Resource("namespaces").Body(ns).Do(ctx).Into(ns)
}

func (b *serverBackend) create(ctx context.Context, res, ns string, obj runtime.Object, opts metav1.CreateOptions, into runtime.Object) error {
	return decode(b.c(res).Post().Namespace(ns).Resource(res).VersionedParams(&opts, parameterCodec).Body(obj).Do(ctx), into)
}

func (b *serverBackend) get(ctx context.Context, res, ns, name string, into runtime.Object) error {
	return decode(b.c(res).Get().Namespace(ns).Resource(res).Name(name).Do(ctx), into)
}

func (b *serverBackend) getSubresource(ctx context.Context, res, sub, ns, name string, into runtime.Object) error {
	return decode(b.c(res).Get().Namespace(ns).Resource(res).Name(name).SubResource(sub).Do(ctx), into)
}

func (b *serverBackend) update(ctx context.Context, res, sub, ns string, obj, into runtime.Object) error {
	r := b.c(res).Put().Namespace(ns).Resource(res).Name(obj.(metav1.Object).GetName())
	if sub != "" {
		r = r.SubResource(sub)
	}
	return decode(r.Body(obj).Do(ctx), into)
}

func (b *serverBackend) patch(ctx context.Context, res, sub, ns, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, into runtime.Object) error {
	r := b.c(res).Patch(pt).Namespace(ns).Resource(res).Name(name)
	if sub != "" {
		r = r.SubResource(sub)
	}
	return decode(r.VersionedParams(&opts, parameterCodec).Body(data).Do(ctx), into)
}

func (b *serverBackend) delete(ctx context.Context, res, ns, name string, opts metav1.DeleteOptions) error {
	return b.c(res).Delete().Namespace(ns).Resource(res).Name(name).Body(&opts).Do(ctx).Error()
}

func (b *serverBackend) deleteCollection(ctx context.Context, res, ns string, opts metav1.ListOptions) error {
	return b.c(res).Delete().Namespace(ns).Resource(res).VersionedParams(&opts, parameterCodec).
		Body(&metav1.DeleteOptions{}).Do(ctx).Error()
}

func (b *serverBackend) list(ctx context.Context, res, ns string, opts metav1.ListOptions, into runtime.Object) error {
	return decode(b.c(res).Get().Namespace(ns).Resource(res).VersionedParams(&opts, parameterCodec).Do(ctx), into)
}

func (b *serverBackend) watch(ctx context.Context, res, ns string, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return b.c(res).Get().Namespace(ns).Resource(res).VersionedParams(&opts, parameterCodec).Watch(ctx)
}
