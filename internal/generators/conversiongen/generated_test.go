package conversiongen_test

import (
	"net/url"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/testdata/conversionapis/shop"
	v1 "github.com/kgen-dev/kgen/testdata/conversionapis/shop/v1"
)

func scheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGeneratedConversionsRoundTrip converts the golden testdata's v1 types to the hub and back through
// a scheme: every field arrives, in its field, whichever way the generated code converts it (unsafe
// casts, element loops, hand-written functions, numeric casts, fields swapped in order).
func TestGeneratedConversionsRoundTrip(t *testing.T) {
	s := scheme(t)
	two := int32(2)
	spec := v1.WidgetSpec{
		Size: 3, Color: "red", Labels: map[string]string{"a": "b"}, Parts: []v1.Part{{Name: "p", Count: 4}},
		Owner: &v1.Owner{Name: "o"}, Replicas: &two, Weight: 70, Shades: map[string]v1.Color{"x": "blue"},
		Extras: map[string]v1.Extra{"e": {Key: "k", Value: "v"}}, Others: []v1.Extra{{Key: "k2", Value: "v2"}},
		Description: "desc", Notes: "notes", Secret: "not converted",
	}
	in := &v1.Widget{Spec: spec, Status: v1.WidgetStatus{Phase: "Ready", Ready: true}}
	in.Name = "w"
	var hub shop.Widget
	if err := s.Convert(in, &hub, nil); err != nil {
		t.Fatal(err)
	}
	want := shop.WidgetSpec{
		Size: 3, Color: "red", Labels: map[string]string{"a": "b"}, Parts: []shop.Part{{Name: "p", Count: 4}},
		Owner: &shop.Owner{Name: "o"}, Replicas: &two, Weight: 70, Shades: map[string]shop.Color{"x": "blue"},
		Extras: map[string]shop.Extra{"e": {Name: "k", Value: "v"}}, Others: []shop.Extra{{Name: "k2", Value: "v2"}},
		Summary: "desc\nnotes",
	}
	if !reflect.DeepEqual(hub.Spec, want) || hub.Name != "w" || hub.Status != (shop.WidgetStatus{Phase: "Ready", Ready: true}) {
		t.Fatalf("to the hub:\n got %+v\nwant %+v", hub, want)
	}
	var back v1.Widget
	if err := s.Convert(&hub, &back, nil); err != nil {
		t.Fatal(err)
	}
	in.Spec.Secret = "" // opted out of the v1 -> hub direction only
	if !reflect.DeepEqual(&back, in) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, *in)
	}

	var swapped shop.Swapped
	if err := s.Convert(&v1.Swapped{B: "b", A: "a"}, &swapped, nil); err != nil {
		t.Fatal(err)
	}
	if swapped != (shop.Swapped{A: "a", B: "b"}) {
		t.Errorf("Swapped converted to %+v; want A=a, B=b", swapped)
	}
}

// TestGeneratedURLValuesConversion reads query parameters into a type tagged explicit-from=net/url.Values.
func TestGeneratedURLValuesConversion(t *testing.T) {
	s := scheme(t)
	var opts v1.QueryOptions
	q := url.Values{"name": {"n"}, "limit": {"5"}, "verbose": {"true"}, "tags": {"a", "b"}}
	if err := s.Convert(&q, &opts, nil); err != nil {
		t.Fatal(err)
	}
	if want := (v1.QueryOptions{Name: "n", Limit: 5, Verbose: true, Tags: []string{"a", "b"}}); !reflect.DeepEqual(opts, want) {
		t.Errorf("got %+v; want %+v", opts, want)
	}
}
