package e2e_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{}, &env))
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
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
}

// coreClient returns a core/v1 client for cfg.
func coreClient(t *testing.T, cfg *rest.Config) *rest.RESTClient {
	t.Helper()
	cfg = rest.CopyConfig(cfg)
	cfg.APIPath = "/api"
	cfg.GroupVersion = &corev1.SchemeGroupVersion
	cfg.NegotiatedSerializer = rest.CodecFactoryForGeneratedClient(scheme, codecs).WithoutConversion()
	c, err := rest.RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// createNamespace creates a namespace named prefix plus a random suffix, so tests can run repeatedly
// against one environment, and returns its name.
func createNamespace(t *testing.T, c *rest.RESTClient, prefix string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: prefix + "-" + utilrand.String(5)}}
	if err := c.Post().Resource("namespaces").Body(ns).Do(context.Background()).Error(); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

func TestE2ECRUDJSONAndProtobuf(t *testing.T) {
	c := coreClient(t, env.Config())
	ctx := context.Background()
	ns := createNamespace(t, c, "crud")
	for _, proto := range []bool{false, true} {
		name := fmt.Sprintf("cm-proto-%v", proto)
		req := func(r *rest.Request) *rest.Request {
			return r.UseProtobufAsDefaultIfPreferred(proto).Namespace(ns).Resource("configmaps")
		}
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"a": "1"}}
		created := &corev1.ConfigMap{}
		var ct string
		if err := req(c.Post()).Body(cm).Do(ctx).ContentType(&ct).Into(created); err != nil {
			t.Fatal(err)
		}
		if created.UID == "" || created.Data["a"] != "1" {
			t.Fatalf("created %+v", created)
		}
		if wantProto := proto; wantProto != (ct == "application/vnd.kubernetes.protobuf") {
			t.Errorf("protobuf=%v but response content type %q", proto, ct)
		}
		if err := req(c.Post()).Body(cm).Do(ctx).Error(); !apierrors.IsAlreadyExists(err) {
			t.Fatalf("second create: %v", err)
		}
		got := &corev1.ConfigMap{}
		if err := req(c.Get()).Name(name).Do(ctx).Into(got); err != nil || got.UID != created.UID {
			t.Fatalf("get: %v", err)
		}
		got.Data["b"] = "2"
		updated := &corev1.ConfigMap{}
		if err := req(c.Put()).Name(name).Body(got).Do(ctx).Into(updated); err != nil || updated.Data["b"] != "2" {
			t.Fatalf("update: %v", err)
		}
		if err := req(c.Put()).Name(name).Body(got).Do(ctx).Error(); !apierrors.IsConflict(err) {
			t.Fatalf("stale update must conflict: %v", err)
		}
		list := &corev1.ConfigMapList{}
		if err := req(c.Get()).VersionedParams(&metav1.ListOptions{FieldSelector: "metadata.name=" + name}, parameterCodec).Do(ctx).Into(list); err != nil || len(list.Items) != 1 {
			t.Fatalf("list: %v %d", err, len(list.Items))
		}
		if err := req(c.Delete()).Name(name).Do(ctx).Error(); err != nil {
			t.Fatal(err)
		}
		if err := req(c.Get()).Name(name).Do(ctx).Into(&corev1.ConfigMap{}); !apierrors.IsNotFound(err) {
			t.Fatalf("get after delete: %v", err)
		}
	}
}

func TestE2EPatchTypes(t *testing.T) {
	c := coreClient(t, env.Config())
	ctx := context.Background()
	ns := createNamespace(t, c, "patch")
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{"keep": "yes"}}, Data: map[string]string{"a": "1"}}
	if err := c.Post().Namespace(ns).Resource("configmaps").Body(cm).Do(ctx).Error(); err != nil {
		t.Fatal(err)
	}
	patches := []struct {
		pt    types.PatchType
		body  string
		check func(*corev1.ConfigMap) bool
	}{
		{types.MergePatchType, `{"data":{"b":"2"}}`, func(c *corev1.ConfigMap) bool { return c.Data["a"] == "1" && c.Data["b"] == "2" }},
		{types.JSONPatchType, `[{"op":"add","path":"/data/c","value":"3"}]`, func(c *corev1.ConfigMap) bool { return c.Data["c"] == "3" }},
		{types.StrategicMergePatchType, `{"metadata":{"labels":{"new":"label"}}}`, func(c *corev1.ConfigMap) bool { return c.Labels["keep"] == "yes" && c.Labels["new"] == "label" }},
		{types.ApplyPatchType, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p"},"data":{"applied":"yes"}}`, func(c *corev1.ConfigMap) bool {
			return c.Data["applied"] == "yes" && len(c.ManagedFields) > 0
		}},
	}
	for _, p := range patches {
		t.Run(string(p.pt), func(t *testing.T) {
			out := &corev1.ConfigMap{}
			opts := &metav1.PatchOptions{FieldManager: "kgen-test"}
			if p.pt == types.ApplyPatchType {
				opts.Force = ptr(true)
			}
			err := c.Patch(p.pt).Namespace(ns).Resource("configmaps").Name("p").
				VersionedParams(opts, parameterCodec).
				Body([]byte(p.body)).Do(ctx).Into(out)
			if err != nil {
				t.Fatal(err)
			}
			if !p.check(out) {
				t.Fatalf("after %s: %+v", p.pt, out)
			}
		})
	}
	err := c.Patch(types.JSONPatchType).Namespace(ns).Resource("configmaps").Name("p").Body([]byte(`[{"op":"test","path":"/data/a","value":"nope"}]`)).Do(ctx).Error()
	if !apierrors.IsInvalid(err) && !apierrors.IsBadRequest(err) && apierrors.ReasonForError(err) == metav1.StatusReasonUnknown {
		t.Fatalf("failed JSON patch test op: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestE2EWatch(t *testing.T) {
	c := coreClient(t, env.Config())
	ctx := context.Background()
	ns := createNamespace(t, c, "watch")
	list := &corev1.ConfigMapList{}
	if err := c.Get().Namespace(ns).Resource("configmaps").Do(ctx).Into(list); err != nil {
		t.Fatal(err)
	}
	for _, proto := range []bool{false, true} {
		t.Run(fmt.Sprintf("protobuf=%v", proto), func(t *testing.T) {
			name := fmt.Sprintf("w-%v", proto)
			w, err := c.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace(ns).Resource("configmaps").
				VersionedParams(&metav1.ListOptions{Watch: true, ResourceVersion: list.ResourceVersion, FieldSelector: "metadata.name=" + name}, parameterCodec).Watch(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}
			if err := c.Post().Namespace(ns).Resource("configmaps").Body(cm).Do(ctx).Error(); err != nil {
				t.Fatal(err)
			}
			if err := c.Patch(types.MergePatchType).Namespace(ns).Resource("configmaps").Name(name).Body([]byte(`{"data":{"x":"y"}}`)).Do(ctx).Error(); err != nil {
				t.Fatal(err)
			}
			if err := c.Delete().Namespace(ns).Resource("configmaps").Name(name).Do(ctx).Error(); err != nil {
				t.Fatal(err)
			}
			for _, want := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted} {
				select {
				case ev := <-w.ResultChan():
					if ev.Type != want {
						t.Fatalf("got %s %v, want %s", ev.Type, ev.Object, want)
					}
					if got := ev.Object.(*corev1.ConfigMap); got.Name != name {
						t.Fatalf("event for %s", got.Name)
					}
				case <-time.After(30 * time.Second):
					t.Fatalf("no %s event", want)
				}
			}
		})
	}
	// A watch from a compacted-away resource version gets a clean Expired/Gone error, as an event or at once.
	w, err := c.Get().Namespace(ns).Resource("configmaps").VersionedParams(&metav1.ListOptions{Watch: true, ResourceVersion: "1"}, parameterCodec).Watch(ctx)
	if err == nil {
		ev := <-w.ResultChan()
		w.Stop()
		if ev.Type == watch.Error {
			err = apierrors.FromObject(ev.Object)
		}
	}
	if err != nil && !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
		t.Fatalf("old resource version: %v", err)
	}
}

func TestE2ERBACForbidden(t *testing.T) {
	cfg, err := env.AddUser("nobody", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := coreClient(t, cfg)
	err = c.Get().Namespace("default").Resource("secrets").Do(context.Background()).Into(&corev1.SecretList{})
	if !apierrors.IsForbidden(err) {
		t.Fatalf("got %T %v", err, err)
	}
	status := err.(apierrors.APIStatus).Status()
	if status.Details == nil || status.Details.Kind != "secrets" || status.Message == "" {
		t.Fatalf("status %+v", status)
	}
}

func TestE2EBearerTokenRejectedIsUnauthorized(t *testing.T) {
	cfg := env.Config()
	cfg.CertData, cfg.KeyData = nil, nil
	cfg.BearerToken = "not-a-valid-token"
	err := coreClient(t, cfg).Get().Resource("namespaces").Do(context.Background()).Error()
	if !apierrors.IsUnauthorized(err) {
		t.Fatalf("got %v", err)
	}
	if s := err.Error(); len(s) == 0 || strings.Contains(s, "not-a-valid-token") {
		t.Fatalf("token leaked or empty error: %q", s)
	}
}
