package webhook

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

const scannedReview = `{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"u-1","desiredAPIVersion":"g/v1","objects":[{"apiVersion":"g/v2","kind":"K","spec":{"a":[1,-2.5e3,true,false,null,"s\"\u00e9"]}}, {}]}}`

func TestScanConversionReview(t *testing.T) {
	var r conversionRequest
	if !scanConversionReview([]byte(" \n"+scannedReview+"\t"), &r) {
		t.Fatal("the API server's review is not scanned")
	}
	want := conversionRequest{hasRequest: true, uid: "u-1", desiredAPIVersion: "g/v1",
		objects: [][]byte{[]byte(`{"apiVersion":"g/v2","kind":"K","spec":{"a":[1,-2.5e3,true,false,null,"s\"\u00e9"]}}`), []byte(`{}`)}}
	want.meta.APIVersion, want.meta.Kind = "apiextensions.k8s.io/v1", "ConversionReview"
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("scanned %+v, want %+v", r, want)
	}
	// What the scan does not take goes to the general decoder: invalid JSON,
	// members it does not know or sees twice, escapes, other types.
	for _, body := range []string{
		`{"kind":"ConversionReview"} x`,
		`{"kind":"ConversionReview",}`,
		`{"kind":"ConversionReview","response":{}}`,
		`{"kind":"ConversionReview","kind":"ConversionReview"}`,
		`{"kind":"Conversion\u0052eview"}`,
		`{"kind":"Conversionréview"}`,
		`{"ki\u006ed":"ConversionReview"}`,
		`{"request":null}`,
		`{"request":{"uid":1}}`,
		`{"request":{"objects":null}}`,
		`{"request":{"objects":[1]}}`,
		`{"request":{"objects":[{}],"objects":[]}}`,
		`{"request":{"objects":[{"a":01}]}}`,
		`{"request":{"objects":[{"a":1.}]}}`,
		`{"request":{"objects":[{"a":-}]}}`,
		`{"request":{"objects":[{"a":1e}]}}`,
		`{"request":{"objects":[{"a":tru}]}}`,
		`{"request":{"objects":[{"a":"\x"}]}}`,
		`{"request":{"objects":[{"a":"\u12"}]}}`,
		"{\"request\":{\"objects\":[{\"a\":\"\t\"}]}}",
		`{"request":{"objects":[{"a":[1,]}]}}`,
		`{"request":{"objects":[{"a" 1}]}}`,
		`{"request":{"objects":[{}}]}}`,
		`{"request":{"objects":[` + strings.Repeat(`{"a":`, maxScanDepth) + `1` + strings.Repeat(`}`, maxScanDepth) + `]}}`,
		`{"request":{"uid":"u"`,
		``,
		`[]`,
	} {
		if scanConversionReview([]byte(body), &r) {
			t.Errorf("scanned %s", body)
		}
	}
}

// FuzzScanConversionReview checks the one-pass scan against the general
// decoder: whatever the scan takes is valid JSON that the decoder reads the
// same way.
func FuzzScanConversionReview(f *testing.F) {
	f.Add([]byte(scannedReview))
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"ConversionReview","request":{"uid":"x"}}`))
	f.Add([]byte(`{"kind":"AdmissionReview","request":{"objects":[{"a":{"b":[{}]}},{"c":"\ud800"}]}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var scanned conversionRequest
		if !scanConversionReview(body, &scanned) {
			return
		}
		if !json.Valid(body) {
			t.Fatalf("scanned invalid JSON %q", body)
		}
		var decoded conversionRequest
		scanErr := checkReviewKind(scanned.meta, ConversionReviewGVK)
		if decodeErr := decodeConversionReview(body, &decoded); !reflect.DeepEqual(scanErr, decodeErr) {
			t.Fatalf("%q: scan says %v, decoder %v", body, scanErr, decodeErr)
		}
		if len(scanned.objects) == 0 {
			scanned.objects = nil
		}
		if !reflect.DeepEqual(scanned, decoded) {
			t.Fatalf("%q: scanned %+v, decoded %+v", body, scanned, decoded)
		}
	})
}
