package crdgen_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/crdgen"
)

func TestParseConversionService(t *testing.T) {
	for in, want := range map[string]crdgen.ConversionService{
		"system/webhook":                 {Namespace: "system", Name: "webhook", Path: "/convert"},
		"system/webhook:9443":            {Namespace: "system", Name: "webhook", Path: "/convert", Port: 9443},
		"system/webhook/convert/paint":   {Namespace: "system", Name: "webhook", Path: "/convert/paint"},
		"system/webhook:8443/conversion": {Namespace: "system", Name: "webhook", Path: "/conversion", Port: 8443},
	} {
		got, err := crdgen.ParseConversionService(in)
		if err != nil || got != want {
			t.Errorf("%q = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"webhook":            "no namespace",
		"/webhook":           "no namespace",
		"system/":            "no service name",
		"system/:9443":       "no service name",
		"system/webhook:0":   "port must be",
		"system/webhook:x":   "port must be",
		"system/webhook:1e9": "port must be",
	} {
		if _, err := crdgen.ParseConversionService(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one saying %q", in, err, want)
		}
	}
}

// TestConversion: the versions of testdata/bad/lossyversions (v1's color is v1beta1's colour) are
// refused without a conversion webhook (TestBadInput), get spec.conversion with a conversion service,
// and are accepted as they are, without spec.conversion, when the loss is accepted explicitly.
func TestConversion(t *testing.T) {
	svc := &crdgen.ConversionService{Namespace: "paint-system", Name: "paint-webhook", Path: "/convert"}
	set, err := generate(t, "testdata/bad/lossyversions", crdgen.Config{OutputDir: "out", MaxDescLen: 0, ConversionService: svc})
	if err != nil {
		t.Fatal(err)
	}
	got := dig(t, crd(t, set, "lossy.example.com_paints.yaml"), "spec", "conversion")
	want := map[string]any{"strategy": "Webhook", "webhook": map[string]any{
		"clientConfig":             map[string]any{"service": map[string]any{"namespace": "paint-system", "name": "paint-webhook", "path": "/convert"}},
		"conversionReviewVersions": []any{"v1"},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("conversion = %v\nwant %v", got, want)
	}

	set, err = generate(t, "testdata/bad/lossyversions", crdgen.Config{OutputDir: "out", MaxDescLen: 0, AllowLossyVersions: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := dig(t, crd(t, set, "lossy.example.com_paints.yaml"), "spec").(map[string]any)["conversion"]; ok {
		t.Error("spec.conversion without a conversion service")
	}

	// One version: no conversion, whatever the configuration.
	set, err = generate(t, "testdata/costbounded", crdgen.Config{OutputDir: "out", MaxDescLen: 0, ConversionService: svc})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.Paths() {
		if strings.Contains(string(set.Content(p)), "conversion:") {
			t.Errorf("%s: a CRD with one version has spec.conversion", p)
		}
	}
}
