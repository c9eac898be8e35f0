package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	sigsjson "sigs.k8s.io/json"
)

// AdmissionReviewGVK is the only kind of review the admission handlers answer.
var AdmissionReviewGVK = admissionv1.SchemeGroupVersion.WithKind("AdmissionReview")

// Object is a pointer to a generated API type: *T implements runtime.Object.
type Object[T any] interface {
	*T
	runtime.Object
}

// Request is an admission request with its objects decoded into P. Object is
// nil on DELETE (and CONNECT); OldObject is set on UPDATE and DELETE. The
// objects as sent stay in AdmissionRequest.Object and .OldObject.
type Request[P runtime.Object] struct {
	*admissionv1.AdmissionRequest
	Object    P
	OldObject P
}

// Warnings are returned to the API client with an allowed or denied request.
type Warnings []string

// ValidateFunc decides a request: a nil error allows it, an error denies it
// with its message (a *errors.StatusError keeps its code and reason).
type ValidateFunc[P runtime.Object] func(ctx context.Context, req Request[P]) (Warnings, error)

// MutateFunc changes req.Object in place; an error denies the request as
// ValidateFunc's does.
type MutateFunc[P runtime.Object] func(ctx context.Context, req Request[P]) (Warnings, error)

// Admission answers AdmissionReviews. Create it with Validating, Mutating or
// Defaulting.
type Admission struct {
	review func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse
}

// Validating returns a handler that decodes each review's objects into *T and
// calls validate.
func Validating[T any, P Object[T]](validate ValidateFunc[P]) *Admission {
	return &Admission{review: func(ctx context.Context, ar *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		req, err := decodeRequest[T, P](ar)
		if err != nil {
			return deny(ar.UID, http.StatusBadRequest, metav1.StatusReasonBadRequest, err.Error(), nil)
		}
		warnings, err := call(ctx, validate, req)
		if err != nil {
			return denial(ar.UID, err, warnings)
		}
		return &admissionv1.AdmissionResponse{UID: ar.UID, Allowed: true, Warnings: warnings}
	}}
}

// Mutating returns a handler that decodes each review's objects into *T,
// calls mutate and answers the JSON patch from the object sent to the object
// mutate left. Requests without an object (DELETE) are passed to mutate too
// and can only be allowed or denied.
func Mutating[T any, P Object[T]](mutate MutateFunc[P]) *Admission {
	return &Admission{review: func(ctx context.Context, ar *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		req, err := decodeRequest[T, P](ar)
		if err != nil {
			return deny(ar.UID, http.StatusBadRequest, metav1.StatusReasonBadRequest, err.Error(), nil)
		}
		var before []byte
		if req.Object != nil {
			// The decoded object before mutation, to tell the function's changes
			// from fields the Go type encodes differently or does not know.
			if before, err = json.Marshal(req.Object); err != nil {
				return deny(ar.UID, http.StatusInternalServerError, metav1.StatusReasonInternalError, "encoding object: "+err.Error(), nil)
			}
		}
		warnings, err := call(ctx, mutate, req)
		if err != nil {
			return denial(ar.UID, err, warnings)
		}
		resp := &admissionv1.AdmissionResponse{UID: ar.UID, Allowed: true, Warnings: warnings}
		if req.Object == nil {
			return resp
		}
		after, err := json.Marshal(req.Object)
		if err != nil {
			return deny(ar.UID, http.StatusInternalServerError, metav1.StatusReasonInternalError, "encoding mutated object: "+err.Error(), warnings)
		}
		patch, err := jsonPatch(ar.Object.Raw, before, after)
		if err != nil {
			return deny(ar.UID, http.StatusInternalServerError, metav1.StatusReasonInternalError, "computing patch: "+err.Error(), warnings)
		}
		if len(patch) > 0 {
			patchType := admissionv1.PatchTypeJSONPatch
			resp.Patch, resp.PatchType = patch, &patchType
		}
		return resp
	}}
}

// Defaulting returns a mutating handler that applies the defaulters scheme
// has registered for *T (Scheme.AddTypeDefaultingFunc, defaulter-gen's
// RegisterDefaults) to created and updated objects.
func Defaulting[T any, P Object[T]](scheme *runtime.Scheme) *Admission {
	return Mutating(func(_ context.Context, req Request[P]) (Warnings, error) {
		if req.Object != nil {
			scheme.Default(req.Object)
		}
		return nil, nil
	})
}

// ServeHTTP answers one AdmissionReview.
func (a *Admission) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body bytes.Buffer
	reqErr := readBody(r, &body)
	var review admissionv1.AdmissionReview
	if reqErr == nil {
		reqErr = decodeReview(body.Bytes(), AdmissionReviewGVK, &review)
	}
	if reqErr == nil && review.Request == nil {
		reqErr = badRequest("AdmissionReview has no request")
	}
	if reqErr != nil {
		var uid types.UID
		if review.Request != nil {
			uid = review.Request.UID
		}
		writeJSON(w, reqErr.code, admissionAnswer(deny(uid, int32(reqErr.code), "", reqErr.msg, nil)))
		return
	}
	writeJSON(w, http.StatusOK, admissionAnswer(a.Review(r.Context(), review.Request)))
}

// Review answers one admission request.
func (a *Admission) Review(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	return a.review(ctx, req)
}

// decodeRequest decodes the request's objects into new *T.
func decodeRequest[T any, P Object[T]](ar *admissionv1.AdmissionRequest) (Request[P], error) {
	req := Request[P]{AdmissionRequest: ar}
	var err error
	if req.Object, err = decodeObject[T, P](ar.Object.Raw); err != nil {
		return req, fmt.Errorf("decoding object: %w", err)
	}
	if req.OldObject, err = decodeObject[T, P](ar.OldObject.Raw); err != nil {
		return req, fmt.Errorf("decoding old object: %w", err)
	}
	return req, nil
}

func decodeObject[T any, P Object[T]](raw []byte) (P, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	obj := P(new(T))
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// call runs fn, turning a panic into an error.
func call[P runtime.Object](ctx context.Context, fn func(context.Context, Request[P]) (Warnings, error), req Request[P]) (warnings Warnings, err error) {
	defer func() {
		if p := recover(); p != nil {
			warnings, err = nil, apierrors.NewInternalError(fmt.Errorf("webhook panicked: %v", p))
		}
	}()
	return fn(ctx, req)
}

// denial turns a function's error into a denied response.
func denial(uid types.UID, err error, warnings Warnings) *admissionv1.AdmissionResponse {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		s := status.Status()
		return &admissionv1.AdmissionResponse{UID: uid, Result: &s, Warnings: warnings}
	}
	return deny(uid, http.StatusForbidden, metav1.StatusReasonForbidden, err.Error(), warnings)
}

func deny(uid types.UID, code int32, reason metav1.StatusReason, msg string, warnings Warnings) *admissionv1.AdmissionResponse {
	return &admissionv1.AdmissionResponse{
		UID:      uid,
		Result:   &metav1.Status{Status: metav1.StatusFailure, Code: code, Reason: reason, Message: msg},
		Warnings: warnings,
	}
}

func admissionAnswer(resp *admissionv1.AdmissionResponse) *admissionv1.AdmissionReview {
	return &admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: AdmissionReviewGVK.GroupVersion().String(), Kind: AdmissionReviewGVK.Kind},
		Response: resp,
	}
}
