package webhook

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/json"
)

// requestError is a request the server cannot review, with the HTTP status
// that says why.
type requestError struct {
	code int
	msg  string
}

func (e *requestError) Error() string { return e.msg }

func badRequest(format string, args ...any) *requestError {
	return &requestError{code: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

// readBody checks the method and content type and reads the body, which the
// server has limited, into buf.
func readBody(r *http.Request, buf *bytes.Buffer) *requestError {
	if r.Method != http.MethodPost {
		return &requestError{code: http.StatusMethodNotAllowed, msg: fmt.Sprintf("method %s not allowed: reviews are POSTed", r.Method)}
	}
	if ct := r.Header.Get("Content-Type"); ct != "" && ct != "application/json" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return &requestError{code: http.StatusUnsupportedMediaType, msg: fmt.Sprintf("content type %q not supported: reviews are application/json", ct)}
		}
	}
	if n := r.ContentLength; n > 0 && n <= maxPooledBytes {
		buf.Grow(int(n) + bytes.MinRead) // room for the body and the read that finds its end
	}
	if _, err := buf.ReadFrom(r.Body); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &requestError{code: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("review larger than %d bytes", tooLarge.Limit)}
		}
		return badRequest("reading review: %v", err)
	}
	if buf.Len() == 0 {
		return badRequest("empty body: expected a review")
	}
	return nil
}

// decodeReview decodes body into review and checks that it is a want
// object. Only version v1 of each review is served.
func decodeReview(body []byte, want schema.GroupVersionKind, review runtime.Object) *requestError {
	var decodeErr error
	if stdjson.Valid(body) {
		// Validated, the body is decoded by the faster decoder the objects use.
		decodeErr = objectDecoder.Unmarshal(body, review)
	} else if decodeErr = json.UnmarshalCaseSensitivePreserveInts(body, review); decodeErr == nil {
		decodeErr = errors.New("invalid JSON") // the standard decoder describes what is wrong; this is a guard
	}
	var meta metav1.TypeMeta
	if tm, ok := review.GetObjectKind().(*metav1.TypeMeta); ok && decodeErr == nil {
		meta = *tm
	} else if json.UnmarshalCaseSensitivePreserveInts(body, &meta) != nil {
		return badRequest("decoding %s: %v", want.Kind, decodeErr)
	}
	// A review of another kind may not decode into this one: the kind, when
	// it can be read, says more than the decoding error.
	if reqErr := checkReviewKind(meta, want); reqErr != nil {
		return reqErr
	}
	if decodeErr != nil {
		return badRequest("decoding %s: %v", want.Kind, decodeErr)
	}
	return nil
}

func checkReviewKind(meta metav1.TypeMeta, want schema.GroupVersionKind) *requestError {
	gv, err := schema.ParseGroupVersion(meta.APIVersion)
	if err != nil {
		return badRequest("decoding %s: apiVersion: %v", want.Kind, err)
	}
	switch {
	case meta.Kind != want.Kind:
		return badRequest("expected a %s, got kind %q", want.Kind, meta.Kind)
	case gv.Group != want.Group:
		return badRequest("expected a %s of group %s, got apiVersion %q", want.Kind, want.Group, meta.APIVersion)
	case gv.Version != want.Version:
		return badRequest("%s version %q not supported: only %s is served (list %q first in the webhook's review versions)",
			want.Kind, gv.Version, want.GroupVersion(), want.Version)
	}
	return nil
}
