package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/randfill"

	"github.com/kgen-dev/kgen/runtime/webhook"
	"github.com/kgen-dev/kgen/runtime/webhook/internal/widgets"
)

// objectsPerVersion is how many random objects each round trip writes in each version.
const objectsPerVersion = 15

// multiVersionKinds are the kinds of testdata/crds.yaml with their served versions.
var multiVersionKinds = []struct {
	kind, plural string
	versions     []schema.GroupVersion
}{
	{"Widget", "widgets", []schema.GroupVersion{widgets.V1, widgets.V1beta1, widgets.V1alpha1}},
	{"Gadget", "gadgets", []schema.GroupVersion{widgets.V1, widgets.V2}},
}

// randomObject fills the spec and status of a new object of gvk.
func randomObject(t *testing.T, f *randfill.Filler, scheme *runtime.Scheme, gvk schema.GroupVersionKind, ns, name string) runtime.Object {
	t.Helper()
	obj, err := scheme.New(gvk)
	if err != nil {
		t.Fatal(err)
	}
	v := reflect.ValueOf(obj).Elem()
	for _, field := range []string{"Spec", "Status"} {
		if fv := v.FieldByName(field); fv.IsValid() {
			f.Fill(fv.Addr().Interface())
		}
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	meta := v.FieldByName("ObjectMeta").Addr().Interface().(*metav1.ObjectMeta)
	meta.Name, meta.Namespace = name, ns
	return obj
}

// content is the object's spec and status as JSON, which is what a round trip must keep.
func content(t *testing.T, obj runtime.Object) string {
	t.Helper()
	v := reflect.ValueOf(obj).Elem()
	parts := map[string]any{}
	for _, field := range []string{"Spec", "Status"} {
		if fv := v.FieldByName(field); fv.IsValid() {
			parts[field] = fv.Interface()
		}
	}
	data, err := json.Marshal(parts)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestRoundTripThroughTheServer writes random objects of every multi-version kind in each version and
// reads them, one by one and as a list, in every other: what the API server answers (converted by the
// webhook on the way to storage and back) equals the local conversion, and converts back to what was
// written, so nothing is lost.
func TestRoundTripThroughTheServer(t *testing.T) {
	serve(t)
	ns := newNamespace(t)
	seed := time.Now().UnixNano()
	t.Logf("randfill seed %d", seed)
	f := randfill.NewWithSeed(seed).NilChance(0.2).NumElements(0, 3)
	scheme := widgets.NewScheme()
	conv := webhook.NewConversion(scheme)
	c := client(t)
	ctx := context.Background()
	for _, kind := range multiVersionKinds {
		written := map[string]runtime.Object{} // by name
		writtenIn := map[string]schema.GroupVersion{}
		for _, gv := range kind.versions {
			for i := range objectsPerVersion {
				name := fmt.Sprintf("rt-%s-%d", gv.Version, i)
				obj := randomObject(t, f, scheme, gv.WithKind(kind.kind), ns, name)
				created, err := c.Resource(resource(gv, kind.plural)).Namespace(ns).Create(ctx, toUnstructured(t, obj), metav1.CreateOptions{})
				if err != nil {
					t.Fatalf("creating %s %s in %s: %v", kind.kind, name, gv.Version, err)
				}
				back, _ := scheme.New(gv.WithKind(kind.kind))
				fromUnstructured(t, created, back)
				if got, want := content(t, back), content(t, obj); got != want {
					t.Fatalf("%s %s written in %s comes back as\n%s\nwant\n%s", kind.kind, name, gv.Version, got, want)
				}
				written[name], writtenIn[name] = obj, gv
			}
		}
		for _, read := range kind.versions {
			list, err := c.Resource(resource(read, kind.plural)).Namespace(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatalf("listing %s in %s: %v", kind.plural, read.Version, err)
			}
			listed := map[string]bool{}
			for i := range list.Items {
				item := &list.Items[i]
				if !strings.HasPrefix(item.GetName(), "rt-") {
					continue
				}
				listed[item.GetName()] = true
				checkRead(t, conv, scheme, kind.kind, written[item.GetName()], writtenIn[item.GetName()], read, item, "list")
			}
			for name, orig := range written {
				if !listed[name] {
					t.Fatalf("%s %s missing from the list in %s", kind.kind, name, read.Version)
				}
				got, err := c.Resource(resource(read, kind.plural)).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					t.Fatalf("reading %s %s in %s: %v", kind.kind, name, read.Version, err)
				}
				checkRead(t, conv, scheme, kind.kind, orig, writtenIn[name], read, got, "get")
			}
		}
	}
}

// checkRead compares what the server answered in version read with the local conversion of the object
// written in version wrote, and converts it back to the written content.
func checkRead(t *testing.T, conv *webhook.Conversion, scheme *runtime.Scheme, kind string, orig runtime.Object, wrote, read schema.GroupVersion, got *unstructured.Unstructured, how string) {
	t.Helper()
	served, _ := scheme.New(read.WithKind(kind))
	fromUnstructured(t, got, served)
	if apiVersion := served.GetObjectKind().GroupVersionKind().GroupVersion(); apiVersion != read {
		t.Fatalf("%s %s read (%s) in %s has apiVersion %s", kind, got.GetName(), how, read.Version, apiVersion)
	}
	want, err := conv.Convert(orig.DeepCopyObject(), wrote.WithKind(kind), read.WithKind(kind))
	if err != nil {
		t.Fatal(err)
	}
	if g, w := content(t, served), content(t, want); g != w {
		t.Fatalf("%s %s written in %s, read (%s) in %s:\n%s\nwant\n%s", kind, got.GetName(), wrote.Version, how, read.Version, g, w)
	}
	back, err := conv.Convert(served, read.WithKind(kind), wrote.WithKind(kind))
	if err != nil {
		t.Fatal(err)
	}
	if g, w := content(t, back), content(t, orig); g != w {
		t.Fatalf("%s %s written in %s and read (%s) in %s lost content:\n%s\nwant\n%s", kind, got.GetName(), wrote.Version, how, read.Version, g, w)
	}
}
