package webhook_test

import (
	"context"
	"net/http"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/runtime/webhook"
	"github.com/kgen-dev/kgen/runtime/webhook/internal/widgets"
)

// FuzzReviews sends arbitrary bodies to a conversion and a mutating handler:
// every answer is a review of the right kind with a 200 or 4xx status, never
// a panic.
func FuzzReviews(f *testing.F) {
	w := sampleWidget()
	f.Add(conversionReview(widgets.V1beta1.String(), w))
	f.Add(conversionReview(widgets.V2.String(), map[string]any{"apiVersion": widgets.V1.String(), "kind": "Gadget", "spec": map[string]any{"mode": "x"}}))
	f.Add(conversionReview(widgets.Group+"/v9", map[string]any{"apiVersion": 1}))
	f.Add(admissionReview(widgetRequest("CREATE", mustJSON(f, w), nil)))
	f.Add(admissionReview(widgetRequest("UPDATE", []byte(`{"spec":{"tags":[1]}}`), []byte(`null`))))
	f.Add([]byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","object":{"metadata":{"name":"a~/b"}}}}`))
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"objects":[null,{}]}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1beta1"}`))
	conv := webhook.NewConversion(widgets.NewScheme())
	mutate := webhook.Mutating(func(_ context.Context, req webhook.Request[*widgets.Widget]) (webhook.Warnings, error) {
		if req.Object != nil {
			req.Object.Spec.Tags = append(req.Object.Spec.Tags, "fuzzed")
			widgets.SetDefaultsWidget(req.Object)
		}
		return nil, nil
	})
	f.Fuzz(func(t *testing.T, body []byte) {
		code, answer := post(t, conv, body)
		resp := decodeConversion(t, answer)
		switch {
		case code == http.StatusOK && resp.Result.Status != metav1.StatusSuccess && resp.Result.Status != metav1.StatusFailure:
			t.Fatalf("conversion status %q", resp.Result.Status)
		case code != http.StatusOK && (code < 400 || code > 499 || resp.Result.Status != metav1.StatusFailure):
			t.Fatalf("conversion answered %d: %s", code, answer)
		}
		code, answer = post(t, mutate, body)
		aresp := decodeAdmission(t, answer)
		if code != http.StatusOK && (code < 400 || code > 499 || aresp.Allowed) {
			t.Fatalf("admission answered %d: %s", code, answer)
		}
	})
}
