package e2e

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	"github.com/kgen-dev/kgen/runtime/webhook/internal/widgets"
)

// admittedV1beta1 and admittedV1 are widgets the admission webhooks see.
func admittedV1beta1(ns, name string) *widgets.WidgetV1beta1 {
	w := &widgets.WidgetV1beta1{Spec: widgets.WidgetV1beta1Spec{Width: 1, Height: 2}}
	w.APIVersion, w.Kind = widgets.V1beta1.String(), "Widget"
	w.Name, w.Namespace, w.Labels = name, ns, map[string]string{"webhook-test": "admission"}
	return w
}

func admittedV1(ns, name string, replicas int32) *widgets.Widget {
	w := &widgets.Widget{Spec: widgets.WidgetSpec{Color: "red", Replicas: ptr.To(replicas)}}
	w.APIVersion, w.Kind = widgets.V1.String(), "Widget"
	w.Name, w.Namespace, w.Labels = name, ns, map[string]string{"webhook-test": "admission"}
	return w
}

func create(t *testing.T, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	t.Helper()
	gv, err := schema.ParseGroupVersion(obj.GetAPIVersion())
	if err != nil {
		t.Fatal(err)
	}
	return client(t).Resource(resource(gv, "widgets")).Namespace(obj.GetNamespace()).Create(context.Background(), obj, metav1.CreateOptions{})
}

// TestAdmissionThroughTheServer: a widget written in v1beta1 without colour or replicas reaches the
// webhooks in v1 (converted by the conversion webhook), is defaulted by the mutating one and stored with
// the defaults; one with too many replicas is refused by the validating one with its message.
func TestAdmissionThroughTheServer(t *testing.T) {
	ns := newNamespace(t)
	serve(t)
	created, err := create(t, toUnstructured(t, admittedV1beta1(ns, "defaulted")))
	if err != nil {
		t.Fatal(err)
	}
	var beta widgets.WidgetV1beta1
	fromUnstructured(t, created, &beta)
	if beta.Spec.Colour != widgets.DefaultColor || beta.Spec.Replicas == nil || *beta.Spec.Replicas != 1 || beta.Spec.Width != 1 {
		t.Fatalf("created %+v, want the defaults applied", beta.Spec)
	}
	got, err := client(t).Resource(resource(widgets.V1, "widgets")).Namespace(ns).Get(context.Background(), "defaulted", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var v1 widgets.Widget
	fromUnstructured(t, got, &v1)
	if v1.Spec.Color != widgets.DefaultColor || *v1.Spec.Replicas != 1 || v1.Spec.Size != (widgets.Size{Width: 1, Height: 2}) {
		t.Fatalf("stored %+v", v1.Spec)
	}

	_, err = create(t, toUnstructured(t, admittedV1(ns, "too-many", 11)))
	want := `admission webhook "validate.widgets.webhook.kgen.dev" denied the request: spec.replicas: at most 10`
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), want) {
		t.Fatalf("creating 11 replicas: %v, want Forbidden with %q", err, want)
	}
	_, err = client(t).Resource(resource(widgets.V1, "widgets")).Namespace(ns).Get(context.Background(), "too-many", metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		t.Fatalf("the refused widget was stored: %v", err)
	}
}

// TestServerDownThenBack: with the webhook server down, the API server fails writes that need a
// conversion or an admission webhook with its own error; once the server is back, they succeed.
func TestServerDownThenBack(t *testing.T) {
	ns := newNamespace(t)
	convertRefused := `conversion webhook for ` + widgets.Group
	admitRefused := `failed calling webhook "default.widgets.webhook.kgen.dev"`
	unlabelled := admittedV1beta1(ns, "down-convert")
	unlabelled.Labels = nil
	if _, err := create(t, toUnstructured(t, unlabelled)); err == nil || !strings.Contains(err.Error(), convertRefused) || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("conversion with the server down: %v, want %q and connection refused", err, convertRefused)
	}
	if _, err := create(t, toUnstructured(t, admittedV1(ns, "down-admit", 1))); err == nil || !strings.Contains(err.Error(), admitRefused) || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("admission with the server down: %v, want %q and connection refused", err, admitRefused)
	}

	serve(t)
	if _, err := create(t, toUnstructured(t, unlabelled)); err != nil {
		t.Fatalf("conversion once the server is back: %v", err)
	}
	if _, err := create(t, toUnstructured(t, admittedV1(ns, "down-admit", 1))); err != nil {
		t.Fatalf("admission once the server is back: %v", err)
	}
}

// TestSlowWebhook: a validating webhook slower than its timeoutSeconds fails the write with the API
// server's timeout error; the next write, answered in time, succeeds.
func TestSlowWebhook(t *testing.T) {
	ns := newNamespace(t)
	serve(t)
	slowValidation.Store(true)
	t.Cleanup(func() { slowValidation.Store(false) })
	_, err := create(t, toUnstructured(t, admittedV1(ns, "slow", 1)))
	if err == nil || !strings.Contains(err.Error(), `failed calling webhook "validate.widgets.webhook.kgen.dev"`) ||
		!(strings.Contains(err.Error(), "deadline exceeded") || strings.Contains(err.Error(), "timeout")) {
		t.Fatalf("slow webhook: %v, want the API server's timeout error", err)
	}
	slowValidation.Store(false)
	if _, err := create(t, toUnstructured(t, admittedV1(ns, "slow", 1))); err != nil {
		t.Fatalf("after the webhook is fast again: %v", err)
	}
}
