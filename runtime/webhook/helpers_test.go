package webhook_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// mustJSON encodes v or fails the test.
func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// post sends body to h and returns the status code and the answer.
func post(t testing.TB, h http.Handler, body []byte) (int, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/hook", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("answer content type %q, want application/json (body %s)", ct, rec.Body)
	}
	return rec.Code, rec.Body.Bytes()
}

func conversionReview(desired string, objs ...any) []byte {
	review := apiextensionsv1.ConversionReview{Request: &apiextensionsv1.ConversionRequest{UID: "uid-1", DesiredAPIVersion: desired}}
	review.APIVersion, review.Kind = "apiextensions.k8s.io/v1", "ConversionReview"
	for _, obj := range objs {
		data, err := json.Marshal(obj)
		if err != nil {
			panic(err)
		}
		review.Request.Objects = append(review.Request.Objects, runtime.RawExtension{Raw: data})
	}
	data, err := json.Marshal(review)
	if err != nil {
		panic(err)
	}
	return data
}

func decodeConversion(t testing.TB, body []byte) *apiextensionsv1.ConversionResponse {
	t.Helper()
	var review apiextensionsv1.ConversionReview
	if err := json.Unmarshal(body, &review); err != nil {
		t.Fatalf("answer is not a ConversionReview: %v: %s", err, body)
	}
	if review.APIVersion != "apiextensions.k8s.io/v1" || review.Kind != "ConversionReview" || review.Response == nil {
		t.Fatalf("answer is not a v1 ConversionReview with a response: %s", body)
	}
	return review.Response
}

func admissionReview(req *admissionv1.AdmissionRequest) []byte {
	review := admissionv1.AdmissionReview{Request: req}
	review.APIVersion, review.Kind = "admission.k8s.io/v1", "AdmissionReview"
	data, err := json.Marshal(review)
	if err != nil {
		panic(err)
	}
	return data
}

func decodeAdmission(t testing.TB, body []byte) *admissionv1.AdmissionResponse {
	t.Helper()
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal(body, &review); err != nil {
		t.Fatalf("answer is not an AdmissionReview: %v: %s", err, body)
	}
	if review.APIVersion != "admission.k8s.io/v1" || review.Kind != "AdmissionReview" || review.Response == nil {
		t.Fatalf("answer is not a v1 AdmissionReview with a response: %s", body)
	}
	return review.Response
}
