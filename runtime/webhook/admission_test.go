package webhook_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	"github.com/kgen-dev/kgen/runtime/webhook"
	"github.com/kgen-dev/kgen/runtime/webhook/internal/widgets"
)

func widgetRequest(op admissionv1.Operation, obj, old []byte) *admissionv1.AdmissionRequest {
	return &admissionv1.AdmissionRequest{
		UID:       "uid-2",
		Kind:      metav1.GroupVersionKind{Group: widgets.Group, Version: "v1", Kind: "Widget"},
		Resource:  metav1.GroupVersionResource{Group: widgets.Group, Version: "v1", Resource: "widgets"},
		Operation: op,
		Object:    runtime.RawExtension{Raw: obj},
		OldObject: runtime.RawExtension{Raw: old},
	}
}

func validateReplicas(_ context.Context, req webhook.Request[*widgets.Widget]) (webhook.Warnings, error) {
	if req.Object == nil {
		return webhook.Warnings{"deleting " + req.OldObject.Name}, nil
	}
	if r := req.Object.Spec.Replicas; r != nil && *r > 10 {
		return nil, errors.New("spec.replicas: at most 10")
	}
	if req.Object.Spec.Color == "green" {
		return nil, apierrors.NewInvalid(schema.GroupKind{Group: widgets.Group, Kind: "Widget"}, req.Object.Name, nil)
	}
	if req.Object.Spec.Color == widgets.PanicColor {
		panic("validator panicked")
	}
	if req.OldObject != nil && req.OldObject.Spec.Color != req.Object.Spec.Color {
		return webhook.Warnings{"color changed"}, nil
	}
	return nil, nil
}

func TestValidating(t *testing.T) {
	h := webhook.Validating(validateReplicas)
	w := sampleWidget()
	tooMany := sampleWidget()
	tooMany.Spec.Replicas = ptr.To[int32](11)
	green := sampleWidget()
	green.Spec.Color = "green"
	panicking := sampleWidget()
	panicking.Spec.Color = widgets.PanicColor
	recolored := sampleWidget()
	recolored.Spec.Color = "black"
	for _, tc := range []struct {
		name     string
		req      *admissionv1.AdmissionRequest
		allowed  bool
		code     int32
		reason   metav1.StatusReason
		message  string
		warnings []string
	}{
		{name: "allowed", req: widgetRequest(admissionv1.Create, mustJSON(t, w), nil), allowed: true},
		{name: "update with warning", req: widgetRequest(admissionv1.Update, mustJSON(t, recolored), mustJSON(t, w)), allowed: true, warnings: []string{"color changed"}},
		{name: "delete sees the old object", req: widgetRequest(admissionv1.Delete, nil, mustJSON(t, w)), allowed: true, warnings: []string{"deleting w"}},
		{name: "plain error", req: widgetRequest(admissionv1.Create, mustJSON(t, tooMany), nil), code: 403, reason: metav1.StatusReasonForbidden, message: "spec.replicas: at most 10"},
		{name: "status error keeps code and reason", req: widgetRequest(admissionv1.Create, mustJSON(t, green), nil), code: 422, reason: metav1.StatusReasonInvalid, message: "Widget." + widgets.Group + ` "w" is invalid`},
		{name: "panic", req: widgetRequest(admissionv1.Create, mustJSON(t, panicking), nil), code: 500, reason: metav1.StatusReasonInternalError, message: "webhook panicked: validator panicked"},
		{name: "object of the wrong shape", req: widgetRequest(admissionv1.Create, []byte(`{"spec":{"replicas":"three"}}`), nil), code: 400, reason: metav1.StatusReasonBadRequest, message: "decoding object: "},
		{name: "old object of the wrong shape", req: widgetRequest(admissionv1.Update, mustJSON(t, w), []byte(`[]`)), code: 400, reason: metav1.StatusReasonBadRequest, message: "decoding old object: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := post(t, h, admissionReview(tc.req))
			resp := decodeAdmission(t, body)
			if code != http.StatusOK || resp.UID != "uid-2" || resp.Allowed != tc.allowed || resp.Patch != nil {
				t.Fatalf("code %d: %s", code, body)
			}
			if !reflect.DeepEqual([]string(resp.Warnings), tc.warnings) {
				t.Errorf("warnings %q, want %q", resp.Warnings, tc.warnings)
			}
			if tc.allowed {
				return
			}
			if resp.Result == nil || resp.Result.Code != tc.code || resp.Result.Reason != tc.reason || !strings.Contains(resp.Result.Message, tc.message) {
				t.Fatalf("result %+v, want code %d reason %s message %q", resp.Result, tc.code, tc.reason, tc.message)
			}
		})
	}
}

// applyPatch applies an answer's JSON patch to the object sent.
func applyPatch(t *testing.T, resp *admissionv1.AdmissionResponse, sent []byte) []byte {
	t.Helper()
	if resp.Patch == nil {
		return sent
	}
	if resp.PatchType == nil || *resp.PatchType != admissionv1.PatchTypeJSONPatch {
		t.Fatalf("patch type %v", resp.PatchType)
	}
	patch, err := jsonpatch.DecodePatch(resp.Patch)
	if err != nil {
		t.Fatalf("patch %s: %v", resp.Patch, err)
	}
	out, err := patch.Apply(sent)
	if err != nil {
		t.Fatalf("applying %s: %v", resp.Patch, err)
	}
	return out
}

func TestMutatingPatchesOnlyWhatChanged(t *testing.T) {
	h := webhook.Mutating(func(_ context.Context, req webhook.Request[*widgets.Widget]) (webhook.Warnings, error) {
		req.Object.Spec.Tags = append(req.Object.Spec.Tags, "mutated")
		delete(req.Object.Spec.Selector, "k")
		req.Object.Spec.Selector["a/b~c"] = "escaped"
		req.Object.Labels = nil
		req.Object.Status.Ready = false
		return webhook.Warnings{"mutated"}, nil
	})
	// The object sent has a field the Go type does not know and no
	// creationTimestamp, which the type encodes as null: neither is patched.
	var sent map[string]any
	if err := json.Unmarshal(mustJSON(t, sampleWidget()), &sent); err != nil {
		t.Fatal(err)
	}
	sent["spec"].(map[string]any)["future"] = map[string]any{"x": 1.0}
	delete(sent["metadata"].(map[string]any), "creationTimestamp")
	raw := mustJSON(t, sent)

	code, body := post(t, h, admissionReview(widgetRequest(admissionv1.Create, raw, nil)))
	resp := decodeAdmission(t, body)
	if code != http.StatusOK || !resp.Allowed || !reflect.DeepEqual([]string(resp.Warnings), []string{"mutated"}) {
		t.Fatalf("code %d: %s", code, body)
	}
	var got, want map[string]any
	if err := json.Unmarshal(applyPatch(t, resp, raw), &got); err != nil {
		t.Fatal(err)
	}
	want = sent
	spec := want["spec"].(map[string]any)
	spec["tags"] = []any{"x", "y", "mutated"}
	spec["selector"] = map[string]any{"a/b~c": "escaped"}
	delete(want["metadata"].(map[string]any), "labels")
	delete(want["status"].(map[string]any), "ready")
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("patched\n%v\nwant\n%v\npatch %s", got, want, resp.Patch)
	}
}

func TestMutatingWithoutChangeHasNoPatch(t *testing.T) {
	h := webhook.Mutating(func(context.Context, webhook.Request[*widgets.Widget]) (webhook.Warnings, error) { return nil, nil })
	_, body := post(t, h, admissionReview(widgetRequest(admissionv1.Create, []byte(`{"apiVersion":"`+widgets.V1.String()+`","kind":"Widget","metadata":{"name":"w"},"spec":{"unknown":1}}`), nil)))
	if resp := decodeAdmission(t, body); !resp.Allowed || resp.Patch != nil || resp.PatchType != nil {
		t.Fatalf("answer %s", body)
	}
	// DELETE carries no object: allowed without a patch.
	_, body = post(t, h, admissionReview(widgetRequest(admissionv1.Delete, nil, mustJSON(t, sampleWidget()))))
	if resp := decodeAdmission(t, body); !resp.Allowed || resp.Patch != nil {
		t.Fatalf("answer %s", body)
	}
}

func TestMutatingDenies(t *testing.T) {
	h := webhook.Mutating(func(_ context.Context, req webhook.Request[*widgets.Widget]) (webhook.Warnings, error) {
		req.Object.Spec.Color = "changed"
		return webhook.Warnings{"w"}, apierrors.NewForbidden(schema.GroupResource{Group: widgets.Group, Resource: "widgets"}, "w", errors.New("no"))
	})
	_, body := post(t, h, admissionReview(widgetRequest(admissionv1.Create, mustJSON(t, sampleWidget()), nil)))
	resp := decodeAdmission(t, body)
	if resp.Allowed || resp.Patch != nil || resp.Result.Code != 403 || !strings.Contains(resp.Result.Message, "no") || len(resp.Warnings) != 1 {
		t.Fatalf("answer %s", body)
	}
}

func TestDefaulting(t *testing.T) {
	h := webhook.Defaulting[widgets.Widget](widgets.NewScheme())
	raw := []byte(`{"apiVersion":"` + widgets.V1.String() + `","kind":"Widget","metadata":{"name":"w"},"spec":{"size":{"width":1,"height":2}}}`)
	_, body := post(t, h, admissionReview(widgetRequest(admissionv1.Create, raw, nil)))
	resp := decodeAdmission(t, body)
	var got widgets.Widget
	if err := json.Unmarshal(applyPatch(t, resp, raw), &got); err != nil {
		t.Fatal(err)
	}
	if !resp.Allowed || got.Spec.Color != widgets.DefaultColor || got.Spec.Replicas == nil || *got.Spec.Replicas != 1 || got.Spec.Size.Height != 2 {
		t.Fatalf("defaulted %+v (answer %s)", got, body)
	}
	var ops []map[string]any
	if err := json.Unmarshal(resp.Patch, &ops); err != nil || len(ops) != 2 {
		t.Fatalf("patch %s: want two adds", resp.Patch)
	}
}
