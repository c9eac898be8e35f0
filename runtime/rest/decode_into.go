package rest

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/rest/internal/listdecode"
	"github.com/kgen-dev/kgen/runtime/rest/metrics"
)

// DoInto sends the request and decodes the response into obj: the same result, errors, warnings,
// metrics and retries as Do(ctx).Into(obj). When obj is a typed list (an Items slice) and the
// response is a successful JSON or protobuf body decoded without conversion, the body is decoded
// as it is read, one item at a time, so the whole body and the decoded list are never held in
// memory together. Other responses, and every response while bodies are logged, are read whole
// first as Do reads them.
func (r *Request) DoInto(ctx context.Context, obj runtime.Object) error {
	var err error
	sendErr := r.send(ctx, r.doPolicy(), func(req *http.Request, resp *http.Response) bool {
		err = r.decodeInto(ctx, req, resp, obj)
		return false
	})
	if sendErr != nil {
		return sendErr
	}
	return err
}

// decodeInto decodes resp into obj, streaming it when listdecode can.
func (r *Request) decodeInto(ctx context.Context, req *http.Request, resp *http.Response, obj runtime.Object) error {
	buffered := func() error { return r.transformResponse(ctx, req, resp).Into(obj) }
	if resp.Body == nil || resp.StatusCode < http.StatusOK || resp.StatusCode > http.StatusPartialContent ||
		klog.FromContext(ctx).V(logLevelBody).Enabled() {
		return buffered()
	}
	target, ok := listdecode.NewTarget(obj)
	if !ok {
		return buffered()
	}
	contentType, decoder, err := r.responseDecoder(resp)
	if err != nil || decoder == nil {
		return buffered()
	}
	format := listdecode.FormatOf(decoder)
	if !target.Supports(format) {
		return buffered()
	}
	body := &countingReader{r: resp.Body}
	decodeErr := listdecode.Decode(body, format, target, decoder, func(data []byte) error {
		return Result{body: data, contentType: contentType, statusCode: resp.StatusCode, decoder: decoder}.Into(obj)
	})
	if body.err != nil {
		return fmt.Errorf("unexpected error when reading response body, please retry: %w", body.err)
	}
	metrics.Registered().ResponseSize.Observe(ctx, r.verb, req.URL.Host, float64(body.n))
	r.handleWarnings(ctx, resp)
	return decodeErr
}

// countingReader counts the bytes read through it and keeps the first read error other than the
// end of the body.
type countingReader struct {
	r   io.Reader
	n   int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}
