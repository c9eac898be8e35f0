package webhook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/kgen-dev/kgen/runtime/webhook"
	"github.com/kgen-dev/kgen/runtime/webhook/internal/widgets"
)

func sampleWidget() *widgets.Widget {
	return &widgets.Widget{
		TypeMeta:   metav1.TypeMeta{APIVersion: widgets.V1.String(), Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "ns", UID: "u-1", Labels: map[string]string{"a": "b"}},
		Spec: widgets.WidgetSpec{Color: "red", Replicas: ptr.To[int32](3), Tags: []string{"x", "y"},
			Selector: map[string]string{"k": "v"}, Size: widgets.Size{Width: 4, Height: 5},
			Parts: []widgets.Part{{Name: "p", Count: 2}}},
		Status: widgets.WidgetStatus{Ready: true, Message: "fine"},
	}
}

func TestConversionHubAndSpokes(t *testing.T) {
	h := webhook.NewConversion(widgets.NewScheme())
	w := sampleWidget()
	code, body := post(t, h, conversionReview(widgets.V1beta1.String(), w, w))
	if code != http.StatusOK {
		t.Fatalf("code %d: %s", code, body)
	}
	resp := decodeConversion(t, body)
	if resp.UID != "uid-1" || resp.Result.Status != metav1.StatusSuccess || len(resp.ConvertedObjects) != 2 {
		t.Fatalf("response %+v", resp)
	}
	var beta widgets.WidgetV1beta1
	if err := json.Unmarshal(resp.ConvertedObjects[0].Raw, &beta); err != nil {
		t.Fatal(err)
	}
	want := widgets.WidgetV1beta1{
		TypeMeta:   metav1.TypeMeta{APIVersion: widgets.V1beta1.String(), Kind: "Widget"},
		ObjectMeta: w.ObjectMeta,
		Spec: widgets.WidgetV1beta1Spec{Colour: "red", Replicas: ptr.To[int32](3), Tags: []string{"x", "y"},
			Selector: map[string]string{"k": "v"}, Width: 4, Height: 5, Parts: w.Spec.Parts},
		Status: w.Status,
	}
	if !reflect.DeepEqual(beta, want) {
		t.Fatalf("converted\n%+v\nwant\n%+v", beta, want)
	}

	// Spoke to spoke goes through the hub; and back to the hub.
	code, body = post(t, h, conversionReview(widgets.V1alpha1.String(), &beta))
	resp = decodeConversion(t, body)
	if code != http.StatusOK || resp.Result.Status != metav1.StatusSuccess {
		t.Fatalf("code %d: %s", code, body)
	}
	var alpha widgets.WidgetV1alpha1
	if err := json.Unmarshal(resp.ConvertedObjects[0].Raw, &alpha); err != nil {
		t.Fatal(err)
	}
	if alpha.APIVersion != widgets.V1alpha1.String() || alpha.Spec.Paint != "red" || !reflect.DeepEqual(alpha.Spec.Labels, w.Spec.Tags) {
		t.Fatalf("v1alpha1: %+v", alpha)
	}
	code, body = post(t, h, conversionReview(widgets.V1.String(), &alpha))
	resp = decodeConversion(t, body)
	var back widgets.Widget
	if err := json.Unmarshal(resp.ConvertedObjects[0].Raw, &back); err != nil || code != http.StatusOK {
		t.Fatal(code, err, string(body))
	}
	if !reflect.DeepEqual(&back, w) {
		t.Fatalf("round trip\n%+v\nwant\n%+v", back, *w)
	}
}

func TestConversionThroughInternalVersion(t *testing.T) {
	h := webhook.NewConversion(widgets.NewScheme())
	g := &widgets.GadgetV1{TypeMeta: metav1.TypeMeta{APIVersion: widgets.V1.String(), Kind: "Gadget"},
		ObjectMeta: metav1.ObjectMeta{Name: "g"}, Spec: widgets.GadgetV1Spec{Mode: "fast", Limit: 7}}
	code, body := post(t, h, conversionReview(widgets.V2.String(), g))
	resp := decodeConversion(t, body)
	if code != http.StatusOK || resp.Result.Status != metav1.StatusSuccess {
		t.Fatalf("code %d: %s", code, body)
	}
	var v2 widgets.GadgetV2
	if err := json.Unmarshal(resp.ConvertedObjects[0].Raw, &v2); err != nil {
		t.Fatal(err)
	}
	want := widgets.GadgetV2{TypeMeta: metav1.TypeMeta{APIVersion: widgets.V2.String(), Kind: "Gadget"},
		ObjectMeta: g.ObjectMeta, Spec: widgets.GadgetV2Spec{Policy: "fast", Limits: widgets.GadgetLimits{Max: 7}}}
	if !reflect.DeepEqual(v2, want) {
		t.Fatalf("converted %+v, want %+v", v2, want)
	}
}

func TestConversionDirectSchemeFunction(t *testing.T) {
	s := runtime.NewScheme()
	s.AddKnownTypeWithName(widgets.V1.WithKind("Gadget"), &widgets.GadgetV1{})
	s.AddKnownTypeWithName(widgets.V2.WithKind("Gadget"), &widgets.GadgetV2{})
	if err := s.AddConversionFunc((*widgets.GadgetV1)(nil), (*widgets.GadgetV2)(nil), func(a, b any, _ conversion.Scope) error {
		in, out := a.(*widgets.GadgetV1), b.(*widgets.GadgetV2)
		out.ObjectMeta, out.Spec = in.ObjectMeta, widgets.GadgetV2Spec{Policy: "direct " + in.Spec.Mode, Limits: widgets.GadgetLimits{Max: in.Spec.Limit}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c := webhook.NewConversion(s)
	out, err := c.Convert(&widgets.GadgetV1{Spec: widgets.GadgetV1Spec{Mode: "m", Limit: 2}}, widgets.V1.WithKind("Gadget"), widgets.V2.WithKind("Gadget"))
	if err != nil {
		t.Fatal(err)
	}
	g := out.(*widgets.GadgetV2)
	if g.Spec.Policy != "direct m" || g.Spec.Limits.Max != 2 || g.APIVersion != widgets.V2.String() || g.Kind != "Gadget" {
		t.Fatalf("converted %+v", g)
	}
}

func TestConversionFailures(t *testing.T) {
	h := webhook.NewConversion(widgets.NewScheme())
	poisoned := sampleWidget()
	poisoned.Spec.Color = widgets.Poison
	panicking := sampleWidget()
	panicking.Spec.Color = widgets.PanicColor
	for _, tc := range []struct {
		name, desired string
		objs          []any
		want          string
	}{
		{"conversion error", widgets.V1beta1.String(), []any{sampleWidget(), poisoned}, "converting object 2 of 2 to " + widgets.V1beta1.String() + ": widgets: the color poison does not convert"},
		{"conversion panic", widgets.V1beta1.String(), []any{panicking}, "conversion panicked: widgets: converting the color panic"},
		{"scheme conversion error", widgets.V2.String(), []any{&widgets.GadgetV1{TypeMeta: metav1.TypeMeta{APIVersion: widgets.V1.String(), Kind: "Gadget"}, Spec: widgets.GadgetV1Spec{Mode: widgets.BadMode}}}, `mode "bad" does not convert`},
		{"unknown desired version", widgets.Group + "/v9", []any{sampleWidget()}, `version "v9" of Widget.` + widgets.Group + ` is not registered in the webhook's scheme (registered: [v1 v1alpha1 v1beta1])`},
		{"unknown source version", widgets.V1.String(), []any{map[string]any{"apiVersion": widgets.Group + "/v0", "kind": "Widget"}}, `version "v0" of Widget.` + widgets.Group + ` is not registered`},
		{"unknown kind", widgets.V1.String(), []any{map[string]any{"apiVersion": widgets.V1beta1.String(), "kind": "Sprocket"}}, "kind Sprocket." + widgets.Group + " is not registered in the webhook's scheme"},
		{"no kind", widgets.V1.String(), []any{map[string]any{"spec": map[string]any{}}}, "object has no apiVersion or kind"},
		{"other group", "apps/v1", []any{sampleWidget()}, `cannot convert to group "apps"`},
		{"bad desired version", "a/b/c", []any{sampleWidget()}, `desiredAPIVersion "a/b/c" is not a group/version`},
		{"object of the wrong shape", widgets.V1beta1.String(), []any{map[string]any{"apiVersion": widgets.V1.String(), "kind": "Widget", "spec": "not an object"}}, "decoding " + widgets.Group + "/v1, Kind=Widget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := post(t, h, conversionReview(tc.desired, tc.objs...))
			resp := decodeConversion(t, body)
			if code != http.StatusOK || resp.UID != "uid-1" || resp.Result.Status != metav1.StatusFailure || resp.ConvertedObjects != nil {
				t.Fatalf("code %d: %s", code, body)
			}
			if !strings.Contains(resp.Result.Message, tc.want) {
				t.Fatalf("message %q does not contain %q", resp.Result.Message, tc.want)
			}
		})
	}
}

func TestConversionSeveralHubs(t *testing.T) {
	s := runtime.NewScheme()
	s.AddKnownTypes(widgets.V1, &widgets.Widget{})
	s.AddKnownTypeWithName(widgets.V2.WithKind("Widget"), &widgets.Widget{})
	s.AddKnownTypeWithName(widgets.V1beta1.WithKind("Widget"), &widgets.WidgetV1beta1{})
	_, err := webhook.NewConversion(s).Convert(&widgets.WidgetV1beta1{}, widgets.V1beta1.WithKind("Widget"), widgets.V1.WithKind("Widget"))
	if err == nil || !strings.Contains(err.Error(), "more than one hub version") {
		t.Fatalf("err %v", err)
	}
}

func TestConversionSpokeNotConvertible(t *testing.T) {
	s := runtime.NewScheme()
	s.AddKnownTypes(widgets.V1, &widgets.Widget{})
	s.AddKnownTypeWithName(widgets.V1beta1.WithKind("Widget"), &widgets.GadgetV1{})
	_, err := webhook.NewConversion(s).Convert(&widgets.Widget{}, widgets.V1.WithKind("Widget"), widgets.V1beta1.WithKind("Widget"))
	if err == nil || !strings.Contains(err.Error(), "*widgets.GadgetV1 does not implement webhook.Convertible") {
		t.Fatalf("err %v", err)
	}
}

func TestConversionRefusesDuplicateTypeMeta(t *testing.T) {
	h := webhook.NewConversion(widgets.NewScheme())
	raw := `{"apiVersion":"` + widgets.V1.String() + `","kind":"Widget","apiVersion":"` + widgets.V1beta1.String() + `","spec":{}}`
	review := conversionReview(widgets.V1alpha1.String(), json.RawMessage(raw))
	_, body := post(t, h, review)
	resp := decodeConversion(t, body)
	if resp.Result.Status != metav1.StatusFailure || !strings.Contains(resp.Result.Message, "object gives apiVersion or kind twice") {
		t.Fatalf("answer %s", body)
	}
}

func TestConversionReview(t *testing.T) {
	c := webhook.NewConversion(widgets.NewScheme())
	raw := mustJSON(t, sampleWidget())
	resp := c.Review(context.Background(), &apiextensionsv1.ConversionRequest{UID: "u", DesiredAPIVersion: widgets.V1beta1.String(),
		Objects: []runtime.RawExtension{{Raw: raw}}})
	if resp.UID != "u" || resp.Result.Status != metav1.StatusSuccess || len(resp.ConvertedObjects) != 1 {
		t.Fatalf("response %+v", resp)
	}
	var beta widgets.WidgetV1beta1
	if err := json.Unmarshal(resp.ConvertedObjects[0].Raw, &beta); err != nil || beta.Spec.Colour != "red" || beta.APIVersion != widgets.V1beta1.String() {
		t.Fatalf("converted %s: %v", resp.ConvertedObjects[0].Raw, err)
	}
	resp = c.Review(context.Background(), &apiextensionsv1.ConversionRequest{UID: "u", DesiredAPIVersion: "",
		Objects: []runtime.RawExtension{{Raw: raw}}})
	if resp.Result.Status != metav1.StatusFailure || resp.ConvertedObjects != nil || !strings.Contains(resp.Result.Message, "is not a group/version") {
		t.Fatalf("response %+v", resp)
	}
}

// TestConversionAnswersAlikeWhicheverDecoderReads sends each review twice:
// as written, which the one-pass scan reads, and with an escape in the
// request's "uid" key, which sends it to the general decoder. The answers
// are the same bytes.
func TestConversionAnswersAlikeWhicheverDecoderReads(t *testing.T) {
	h := webhook.NewConversion(widgets.NewScheme())
	poisoned := sampleWidget()
	poisoned.Spec.Color = widgets.Poison
	named := sampleWidget()
	named.Labels = map[string]string{"é<&>": "\u2028"}
	for _, review := range [][]byte{
		conversionReview(widgets.V1beta1.String(), sampleWidget(), sampleWidget()),
		conversionReview(widgets.V1alpha1.String(), named),
		conversionReview(widgets.V1beta1.String()),
		conversionReview(widgets.V1beta1.String(), sampleWidget(), poisoned),
		conversionReview(widgets.Group+"/v9", sampleWidget()),
		bytes.Replace(conversionReview(widgets.V1beta1.String(), sampleWidget()), []byte("apiextensions.k8s.io/v1"), []byte("apiextensions.k8s.io/v1beta1"), 1),
	} {
		escaped := bytes.Replace(review, []byte(`"uid":"uid-1"`), []byte(`"\u0075id":"uid-1"`), 1)
		if bytes.Equal(escaped, review) {
			t.Fatalf("no request uid in %s", review)
		}
		code, answer := post(t, h, review)
		escapedCode, escapedAnswer := post(t, h, escaped)
		if code != escapedCode || !bytes.Equal(answer, escapedAnswer) {
			t.Errorf("review %s\nanswered %d %s\nwith an escaped key %d %s", review, code, answer, escapedCode, escapedAnswer)
		}
		if resp := decodeConversion(t, answer); resp.UID != "uid-1" {
			t.Errorf("answer %s", answer)
		}
	}
}
