package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"reflect"
	"strconv"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/internal/pause"
	"github.com/kgen-dev/kgen/runtime/rest/metrics"
)

// DefaultMaxRetries is how many times a request is retried after a Retry-After response or,
// for GETs, a dropped connection.
const DefaultMaxRetries = 10

// maxErrorBodyBytes caps how much of an unstructured error body is quoted in an error.
const maxErrorBodyBytes = 4 * 1024

// Request is a fluent builder for one API call. Builder methods record the first error, which Do,
// Watch, Stream and DoRaw then return.
type Request struct {
	c                    *RESTClient
	content              ClientContentConfig
	contentTypeDefaulted bool
	rateLimiter          RateLimiter
	warningHandler       WarningHandlerWithContext
	timeout              time.Duration
	maxRetries           int

	verb       string
	pathPrefix string
	subpath    string
	params     url.Values
	headers    http.Header

	namespace    string
	namespaceSet bool
	resource     string
	resourceName string
	subresource  string

	err       error
	body      io.Reader
	bodyBytes []byte
}

// NewRequest returns a Request for c with the client's content, limiter and timeout defaults.
func NewRequest(c *RESTClient) *Request {
	var timeout time.Duration
	if c.Client != nil {
		timeout = c.Client.Timeout
	}
	basePath := ""
	if c.base != nil {
		basePath = c.base.Path
	}
	prefix := path.Join("/", basePath, c.versionedAPIPath)
	r := &Request{
		c:                    c,
		content:              c.content,
		contentTypeDefaulted: c.contentTypeDefaulted,
		rateLimiter:          c.rateLimiter,
		warningHandler:       c.warningHandler,
		timeout:              timeout,
		maxRetries:           DefaultMaxRetries,
		pathPrefix:           prefix,
	}
	r.setAcceptHeader()
	return r
}

// NewRequestWithClient returns a Request against base and versionedAPIPath using client, mainly for tests.
func NewRequestWithClient(base *url.URL, versionedAPIPath string, content ClientContentConfig, client *http.Client) *Request {
	c, err := NewRESTClient(base, versionedAPIPath, content, nil, client)
	if err != nil {
		return &Request{err: err}
	}
	return NewRequest(c)
}

func (r *Request) setAcceptHeader() {
	switch {
	case r.content.AcceptContentTypes != "":
		r.SetHeader("Accept", r.content.AcceptContentTypes)
	case r.content.ContentType != "":
		r.SetHeader("Accept", r.content.ContentType+", */*")
	}
}

// UseProtobufAsDefault asks for protobuf (falling back to JSON) unless the client configured a content type.
func (r *Request) UseProtobufAsDefault() *Request {
	if r.contentTypeDefaulted && r.content.AcceptContentTypes == "" {
		r.content.AcceptContentTypes = mediaTypeProtobuf + "," + mediaTypeJSON
		r.content.ContentType = mediaTypeProtobuf
		r.setAcceptHeader()
	}
	return r
}

// UseProtobufAsDefaultIfPreferred calls UseProtobufAsDefault when prefersProtobuf is set.
func (r *Request) UseProtobufAsDefaultIfPreferred(prefersProtobuf bool) *Request {
	if prefersProtobuf {
		return r.UseProtobufAsDefault()
	}
	return r
}

// Verb sets the HTTP method.
func (r *Request) Verb(verb string) *Request {
	r.verb = verb
	return r
}

// Prefix appends path segments after the versioned API path and before the namespace.
func (r *Request) Prefix(segments ...string) *Request {
	if r.err == nil {
		r.pathPrefix = path.Join(r.pathPrefix, path.Join(segments...))
	}
	return r
}

// Suffix appends path segments after the resource, name and subresource.
func (r *Request) Suffix(segments ...string) *Request {
	if r.err == nil {
		r.subpath = path.Join(r.subpath, path.Join(segments...))
	}
	return r
}

// Resource sets the resource (e.g. "pods").
func (r *Request) Resource(resource string) *Request {
	switch {
	case r.err != nil:
	case r.resource != "":
		r.err = fmt.Errorf("resource already set to %q, cannot change to %q", r.resource, resource)
	default:
		r.err = validSegment("resource", resource)
		r.resource = resource
	}
	return r
}

// SubResource sets the subresource path (e.g. "status" or "scale").
func (r *Request) SubResource(subresources ...string) *Request {
	sub := path.Join(subresources...)
	switch {
	case r.err != nil:
	case r.subresource != "":
		r.err = fmt.Errorf("subresource already set to %q, cannot change to %q", r.subresource, sub)
	default:
		for _, s := range subresources {
			if err := validSegment("subresource", s); err != nil {
				r.err = err
				return r
			}
		}
		r.subresource = sub
	}
	return r
}

// Name sets the object name.
func (r *Request) Name(resourceName string) *Request {
	switch {
	case r.err != nil:
	case resourceName == "":
		r.err = fmt.Errorf("resource name may not be empty")
	case r.resourceName != "":
		r.err = fmt.Errorf("resource name already set to %q, cannot change to %q", r.resourceName, resourceName)
	default:
		r.err = validSegment("resource name", resourceName)
		r.resourceName = resourceName
	}
	return r
}

// Namespace scopes the request to namespace.
func (r *Request) Namespace(namespace string) *Request {
	switch {
	case r.err != nil:
	case r.namespaceSet:
		r.err = fmt.Errorf("namespace already set to %q, cannot change to %q", r.namespace, namespace)
	default:
		if namespace != "" {
			r.err = validSegment("namespace", namespace)
		}
		r.namespaceSet = true
		r.namespace = namespace
	}
	return r
}

// NamespaceIfScoped calls Namespace when scoped is set.
func (r *Request) NamespaceIfScoped(namespace string, scoped bool) *Request {
	if scoped {
		return r.Namespace(namespace)
	}
	return r
}

// AbsPath replaces the path prefix with the server base path joined with segments.
func (r *Request) AbsPath(segments ...string) *Request {
	if r.err != nil {
		return r
	}
	base := "/"
	if r.c != nil && r.c.base != nil {
		base = r.c.base.Path
	}
	r.pathPrefix = path.Join(base, path.Join(segments...))
	if len(segments) == 1 && len(segments[0]) > 1 && strings.HasSuffix(segments[0], "/") {
		r.pathPrefix += "/"
	}
	return r
}

// RequestURI replaces the path and query with those of uri.
func (r *Request) RequestURI(uri string) *Request {
	if r.err != nil {
		return r
	}
	u, err := url.Parse(uri)
	if err != nil {
		r.err = err
		return r
	}
	r.pathPrefix = u.Path
	for k, v := range u.Query() {
		for _, s := range v {
			r.setParam(k, s)
		}
	}
	return r
}

// Param adds a query parameter.
func (r *Request) Param(paramName, s string) *Request {
	if r.err == nil {
		r.setParam(paramName, s)
	}
	return r
}

// VersionedParams encodes obj (e.g. metav1.ListOptions) as query parameters using codec and the client's version.
func (r *Request) VersionedParams(obj runtime.Object, codec runtime.ParameterCodec) *Request {
	return r.SpecificallyVersionedParams(obj, codec, r.content.GroupVersion)
}

// SpecificallyVersionedParams encodes obj as query parameters in the given version.
func (r *Request) SpecificallyVersionedParams(obj runtime.Object, codec runtime.ParameterCodec, version schema.GroupVersion) *Request {
	if r.err != nil {
		return r
	}
	params, err := codec.EncodeParameters(obj, version)
	if err != nil {
		r.err = err
		return r
	}
	for k, v := range params {
		for _, s := range v {
			r.setParam(k, s)
		}
	}
	return r
}

func (r *Request) setParam(name, value string) {
	if r.params == nil {
		r.params = url.Values{}
	}
	r.params[name] = append(r.params[name], value)
}

// SetHeader replaces the values of an HTTP request header.
func (r *Request) SetHeader(key string, values ...string) *Request {
	if r.headers == nil {
		r.headers = http.Header{}
	}
	r.headers.Del(key)
	for _, v := range values {
		r.headers.Add(key, v)
	}
	return r
}

// Timeout bounds the request and asks the server to finish within d.
func (r *Request) Timeout(d time.Duration) *Request {
	if r.err == nil {
		r.timeout = d
	}
	return r
}

// MaxRetries sets how many times the request may be retried; zero disables retries.
func (r *Request) MaxRetries(maxRetries int) *Request {
	r.maxRetries = max(maxRetries, 0)
	return r
}

// Throttle replaces the rate limiter for this request.
func (r *Request) Throttle(limiter RateLimiter) *Request {
	r.rateLimiter = limiter
	return r
}

// WarningHandler replaces the warning handler for this request.
func (r *Request) WarningHandler(handler WarningHandler) *Request {
	r.warningHandler = withoutContext(handler)
	return r
}

// WarningHandlerWithContext replaces the warning handler for this request with one that is
// given the request's context.
func (r *Request) WarningHandlerWithContext(handler WarningHandlerWithContext) *Request {
	r.warningHandler = handler
	return r
}

// Body sets the request body: a runtime.Object (encoded with the request's content type), []byte, or io.Reader.
// Only object and byte bodies can be replayed on retry.
func (r *Request) Body(obj any) *Request {
	if r.err != nil {
		return r
	}
	switch t := obj.(type) {
	case []byte:
		r.bodyBytes, r.body = t, nil
	case io.Reader:
		r.body, r.bodyBytes = t, nil
	case runtime.Object:
		if isNilObject(t) {
			return r
		}
		if r.content.Negotiator == nil {
			r.err = fmt.Errorf("cannot encode %T: the client has no serializer", t)
			return r
		}
		enc, err := r.content.Negotiator.Encoder(r.content.ContentType, nil)
		if err != nil {
			r.err = err
			return r
		}
		data, err := runtime.Encode(enc, t)
		if err != nil {
			r.err = err
			return r
		}
		r.bodyBytes, r.body = data, nil
		r.SetHeader("Content-Type", r.content.ContentType)
	case nil:
	default:
		r.err = fmt.Errorf("unknown type used for body: %T", obj)
	}
	return r
}

// isNilObject reports whether obj is a typed nil pointer.
func isNilObject(obj runtime.Object) bool {
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// Error returns the first error recorded while building the request.
func (r *Request) Error() error { return r.err }

// URL returns the full URL of the request.
func (r *Request) URL() *url.URL {
	p := r.pathPrefix
	if r.namespaceSet && r.namespace != "" {
		p = path.Join(p, "namespaces", r.namespace)
	}
	if r.resource != "" {
		p = path.Join(p, strings.ToLower(r.resource))
	}
	if r.resourceName != "" || r.subpath != "" || r.subresource != "" {
		p = path.Join(p, r.resourceName, r.subresource, r.subpath)
	}
	u := &url.URL{}
	if r.c != nil && r.c.base != nil {
		*u = *r.c.base
	}
	u.Path = p
	query := url.Values{}
	for k, v := range r.params {
		query[k] = v
	}
	if r.timeout != 0 {
		query.Set("timeout", r.timeout.String())
	}
	u.RawQuery = query.Encode()
	return u
}

// preflight rejects an explicitly empty namespace where the server would misroute the request.
func (r *Request) preflight() error {
	if !r.namespaceSet || r.namespace != "" {
		return nil
	}
	switch r.verb {
	case http.MethodPost:
		return fmt.Errorf("an empty namespace may not be set during creation")
	case http.MethodGet, http.MethodPut, http.MethodDelete:
		if r.resourceName != "" {
			return fmt.Errorf("an empty namespace may not be set when a resource name is provided")
		}
	}
	return nil
}

func (r *Request) httpClient() *http.Client {
	if r.c != nil && r.c.Client != nil {
		return r.c.Client
	}
	return http.DefaultClient
}

func (r *Request) throttle(ctx context.Context) error {
	if r.rateLimiter == nil {
		return nil
	}
	start := time.Now()
	err := r.rateLimiter.Wait(ctx)
	waited := time.Since(start)
	r.observeLatency(ctx, metrics.Registered().RateLimiterLatency, waited)
	if waited > time.Second {
		klog.FromContext(ctx).V(3).Info("Waited before sending request due to client-side throttling", "delay", waited, "verb", r.verb, "url", r.URL().String())
	}
	if err != nil {
		return fmt.Errorf("client rate limiter Wait returned an error: %w", err)
	}
	return nil
}

func (r *Request) newHTTPRequest(ctx context.Context) (*http.Request, error) {
	var body io.Reader
	switch {
	case r.body != nil:
		body = r.body
	case r.bodyBytes != nil:
		body = bytes.NewReader(r.bodyBytes)
	}
	req, err := http.NewRequestWithContext(ctx, r.verb, r.URL().String(), body)
	if err != nil {
		return nil, err
	}
	req.Header = r.headers.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	return req, nil
}

// retryDecision says whether and after how long to retry a finished attempt.
func (r *Request) retryDecision(attempt int, resp *http.Response, err error, errRetryable func(error) bool) (time.Duration, bool) {
	if attempt >= r.maxRetries || r.body != nil {
		return 0, false
	}
	if err != nil {
		if errRetryable != nil && errRetryable(err) {
			return time.Second, true
		}
		return 0, false
	}
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < http.StatusInternalServerError {
		return 0, false
	}
	seconds, ok := retryAfterSeconds(resp)
	if !ok {
		return 0, false
	}
	return time.Duration(seconds) * time.Second, true
}

// retryAfterSeconds parses a Retry-After header given in whole seconds.
func retryAfterSeconds(resp *http.Response) (int, bool) {
	h := resp.Header.Get("Retry-After")
	if h == "" {
		return 0, false
	}
	i, err := strconv.Atoi(h)
	if err != nil || i < 0 {
		return 0, false
	}
	return i, true
}

// sendPolicy says how send treats one kind of call.
type sendPolicy struct {
	// throttle waits for the rate limiter before each attempt.
	throttle bool
	// timeout bounds all attempts by the request timeout, counted after the first throttle wait so a
	// throttled client does not time out before sending anything.
	timeout bool
	// errRetryable selects transport errors worth another attempt; nil retries none.
	errRetryable func(error) bool
}

// send sends the request, retrying per retryDecision. The final response is handed to handle, which
// reports whether it took ownership of the response body (otherwise send closes it).
func (r *Request) send(ctx context.Context, policy sendPolicy, handle func(*http.Request, *http.Response) bool) error {
	if r.err != nil {
		return r.err
	}
	if err := r.preflight(); err != nil {
		return err
	}
	if policy.throttle {
		if err := r.throttle(ctx); err != nil {
			return err
		}
	}
	if policy.timeout && r.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.timeout)
		defer cancel()
	}
	client := r.httpClient()
	logBody(ctx, "Request Body", r.bodyBytes)
	var previous error
	for attempt := 0; ; attempt++ {
		req, err := r.newHTTPRequest(ctx)
		if err != nil {
			return err
		}
		start := time.Now()
		resp, err := client.Do(req)
		elapsed := time.Since(start)
		logRoundTrip(ctx, req, resp, err, elapsed)
		r.observeAttempt(ctx, req, resp, err, elapsed)
		wait, retry := r.retryDecision(attempt, resp, err, policy.errRetryable)
		if !retry {
			if err != nil {
				return wrapPrevious(err, previous)
			}
			if !handle(req, resp) {
				drainAndClose(resp)
			}
			return nil
		}
		metrics.Registered().RequestRetry.IncrementRetry(ctx, resultCode(resp, err), r.verb, req.URL.Host)
		if err != nil {
			previous = err
		} else {
			previous = fmt.Errorf("server responded with %s", resp.Status)
			drainAndClose(resp)
		}
		klog.FromContext(ctx).V(4).Info("Retrying request", "verb", r.verb, "url", req.URL.String(), "attempt", attempt+1, "delay", wait, "reason", previous)
		if !pause.For(ctx, r.c.retryClock(), wait) {
			return wrapPrevious(ctx.Err(), previous)
		}
		if policy.throttle {
			if err := r.throttle(ctx); err != nil {
				return wrapPrevious(err, previous)
			}
		}
	}
}

func wrapPrevious(err, previous error) error {
	if previous == nil || errors.Is(previous, err) {
		return err
	}
	return fmt.Errorf("%w - error from a previous attempt: %v", err, previous)
}

// drainAndClose reads a little of the body so the connection can be reused, then closes it.
func drainAndClose(resp *http.Response) {
	if resp == nil || resp.Body == nil {
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	_ = resp.Body.Close()
}

// isRetryableGETError reports transient connection failures after which an idempotent GET may be resent.
func isRetryableGETError(err error) bool {
	return utilnet.IsConnectionReset(err) || utilnet.IsProbableEOF(err) || utilnet.IsHTTP2ConnectionLost(err)
}

// doPolicy is how Do and DoInto send: throttled, bounded by the timeout, GETs retried after
// dropped connections.
func (r *Request) doPolicy() sendPolicy {
	policy := sendPolicy{throttle: true, timeout: true}
	if r.verb == http.MethodGet {
		policy.errRetryable = isRetryableGETError
	}
	return policy
}

// Do sends the request and returns its Result. Server errors are *errors.StatusError.
func (r *Request) Do(ctx context.Context) Result {
	var result Result
	err := r.send(ctx, r.doPolicy(), func(req *http.Request, resp *http.Response) bool {
		result = r.transformResponse(ctx, req, resp)
		return false
	})
	if err != nil {
		return Result{err: err}
	}
	return result
}

// DoRaw sends the request and returns the raw response body, with a *errors.StatusError for server errors.
func (r *Request) DoRaw(ctx context.Context) ([]byte, error) {
	result := r.Do(ctx)
	return result.body, result.err
}

// Stream sends the request and returns the response body for the caller to read and close.
func (r *Request) Stream(ctx context.Context) (io.ReadCloser, error) {
	var body io.ReadCloser
	var streamErr error
	err := r.send(ctx, sendPolicy{throttle: true}, func(req *http.Request, resp *http.Response) bool {
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			r.handleWarnings(ctx, resp)
			body = resp.Body
			return true
		}
		result := r.transformResponse(ctx, req, resp)
		streamErr = result.err
		if streamErr == nil {
			streamErr = fmt.Errorf("%d while accessing %s: %s", resp.StatusCode, req.URL, string(result.body))
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	return body, streamErr
}

// Watch sends a watch request and returns a watch.Interface that decodes the event stream.
// Watches are never rate limited.
func (r *Request) Watch(ctx context.Context) (watch.Interface, error) {
	var w watch.Interface
	var watchErr error
	retryable := func(err error) bool { return utilnet.IsProbableEOF(err) || utilnet.IsTimeout(err) }
	err := r.send(ctx, sendPolicy{errRetryable: retryable}, func(req *http.Request, resp *http.Response) bool {
		if resp.StatusCode == http.StatusOK {
			w, watchErr = r.newStreamWatcher(ctx, resp)
			return watchErr == nil
		}
		result := r.transformResponse(ctx, req, resp)
		watchErr = result.err
		if watchErr == nil {
			watchErr = fmt.Errorf("for request %s, got status: %v", req.URL, resp.StatusCode)
		}
		return false
	})
	if err != nil {
		if retryable(err) {
			// The stream ended before it began; an empty watch makes the caller re-list and re-watch.
			return watch.NewEmptyWatch(), nil
		}
		return nil, err
	}
	return w, watchErr
}

func (r *Request) handleWarnings(ctx context.Context, resp *http.Response) []utilnet.WarningHeader {
	return handleWarnings(ctx, resp.Header, r.warningHandler)
}

// transformResponse reads the response and turns it into a Result, decoding server errors into StatusErrors.
func (r *Request) transformResponse(ctx context.Context, req *http.Request, resp *http.Response) Result {
	var body []byte
	if resp.Body != nil {
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return Result{err: fmt.Errorf("unexpected error when reading response body, please retry: %w", err)}
		}
		body = data
	}
	logBody(ctx, "Response Body", body)
	metrics.Registered().ResponseSize.Observe(ctx, r.verb, req.URL.Host, float64(len(body)))

	contentType, decoder, err := r.responseDecoder(resp)
	if err != nil {
		return Result{err: err}
	}
	result := Result{
		body:        body,
		contentType: contentType,
		statusCode:  resp.StatusCode,
		decoder:     decoder,
		warnings:    r.handleWarnings(ctx, resp),
	}
	if resp.StatusCode == http.StatusSwitchingProtocols || (resp.StatusCode >= 200 && resp.StatusCode <= http.StatusPartialContent) {
		return result
	}
	result.err = r.responseError(req, resp, body, decoder, contentType)
	return result
}

// responseDecoder returns the response's content type (the request's when the server sent none)
// and the decoder for it, nil when the client has none.
func (r *Request) responseDecoder(resp *http.Response) (string, runtime.Decoder, error) {
	contentType := resp.Header.Get("Content-Type")
	if contentType == "" {
		contentType = r.content.ContentType
	}
	if contentType == "" || r.content.Negotiator == nil {
		return contentType, nil, nil
	}
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return contentType, nil, apierrors.NewInternalError(err)
	}
	decoder, err := r.content.Negotiator.Decoder(mediaType, params)
	if err != nil {
		return contentType, nil, nil
	}
	return contentType, decoder, nil
}

// responseError builds the error for a non-2xx response: the server's Status when it sent one, else a
// generic StatusError for the code.
func (r *Request) responseError(req *http.Request, resp *http.Response, body []byte, decoder runtime.Decoder, contentType string) error {
	if status := decodeStatus(body, decoder, contentType); status != nil && status.Status == metav1.StatusFailure {
		if status.Code == 0 {
			status.Code = int32(resp.StatusCode)
		}
		return &apierrors.StatusError{ErrStatus: *status}
	}
	message := "unknown"
	if isTextResponse(resp) {
		if len(body) > maxErrorBodyBytes {
			body = body[:maxErrorBodyBytes]
		}
		message = strings.TrimSpace(string(body))
	}
	var gr schema.GroupResource
	if r.resource != "" {
		gr = schema.GroupResource{Group: r.content.GroupVersion.Group, Resource: r.resource}
	}
	retryAfter, _ := retryAfterSeconds(resp)
	return apierrors.NewGenericServerResponse(resp.StatusCode, req.Method, gr, r.resourceName, message, retryAfter, true)
}

// decodeStatus returns the metav1.Status in body, or nil when the body is not a Status.
func decodeStatus(body []byte, decoder runtime.Decoder, contentType string) *metav1.Status {
	if len(body) == 0 {
		return nil
	}
	if decoder != nil {
		if out, _, err := decoder.Decode(body, &schema.GroupVersionKind{Version: "v1"}, nil); err == nil {
			if s, ok := out.(*metav1.Status); ok {
				return s
			}
		}
	}
	if mediaType, _, err := mime.ParseMediaType(contentType); err == nil && mediaType == mediaTypeJSON {
		var s metav1.Status
		if json.Unmarshal(body, &s) == nil && s.Kind == "Status" {
			return &s
		}
	}
	return nil
}

func isTextResponse(resp *http.Response) bool {
	contentType := resp.Header.Get("Content-Type")
	if contentType == "" {
		return true
	}
	media, _, err := mime.ParseMediaType(contentType)
	return err == nil && strings.HasPrefix(media, "text/")
}

// Result is the outcome of Request.Do.
type Result struct {
	body        []byte
	warnings    []utilnet.WarningHeader
	contentType string
	err         error
	statusCode  int
	decoder     runtime.Decoder
}

// Raw returns the response body and the error, if any.
func (r Result) Raw() ([]byte, error) { return r.body, r.err }

// Error returns the request error: a *errors.StatusError for server errors.
func (r Result) Error() error { return r.err }

// StatusCode stores the HTTP status code in statusCode and returns r, for chaining.
func (r Result) StatusCode(statusCode *int) Result {
	*statusCode = r.statusCode
	return r
}

// ContentType stores the response content type in contentType and returns r, for chaining.
func (r Result) ContentType(contentType *string) Result {
	*contentType = r.contentType
	return r
}

// WasCreated stores whether the server answered 201 Created and returns r, for chaining.
func (r Result) WasCreated(wasCreated *bool) Result {
	*wasCreated = r.statusCode == http.StatusCreated
	return r
}

// Warnings returns the warnings the server sent with the response.
func (r Result) Warnings() []utilnet.WarningHeader { return r.warnings }

// Get decodes the body into a new object; a failed Status becomes an error.
func (r Result) Get() (runtime.Object, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.decoder == nil {
		return nil, fmt.Errorf("serializer for %s doesn't exist", r.contentType)
	}
	out, _, err := r.decoder.Decode(r.body, nil, nil)
	if err != nil {
		return nil, err
	}
	if s, ok := out.(*metav1.Status); ok && s.Status != metav1.StatusSuccess {
		return nil, apierrors.FromObject(s)
	}
	return out, nil
}

// Into decodes the body into obj; a failed Status becomes an error.
func (r Result) Into(obj runtime.Object) error {
	if r.err != nil {
		return r.err
	}
	if r.decoder == nil {
		return fmt.Errorf("serializer for %s doesn't exist", r.contentType)
	}
	if len(r.body) == 0 {
		return fmt.Errorf("0-length response with status code: %d and content type: %s", r.statusCode, r.contentType)
	}
	out, _, err := r.decoder.Decode(r.body, nil, obj)
	if err != nil || out == obj {
		return err
	}
	if s, ok := out.(*metav1.Status); ok && s.Status != metav1.StatusSuccess {
		return apierrors.FromObject(s)
	}
	return nil
}

func validSegment(what, s string) error {
	if s == "." || s == ".." {
		return fmt.Errorf("invalid %s %q: may not be '%s'", what, s, s)
	}
	if strings.ContainsAny(s, "/%") {
		return fmt.Errorf("invalid %s %q: may not contain '/' or '%%'", what, s)
	}
	return nil
}

// ResponseWrapper is a request whose raw response is read whole or streamed, such as a call through
// the API server's proxy; *Request implements it.
type ResponseWrapper interface {
	DoRaw(ctx context.Context) ([]byte, error)
	Stream(ctx context.Context) (io.ReadCloser, error)
}

var _ ResponseWrapper = (*Request)(nil)
