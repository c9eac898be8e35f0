package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	jsoniter "github.com/json-iterator/go"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Hub marks the version of a kind that every other version converts to and
// from (controller-runtime's conversion.Hub shape).
type Hub interface {
	runtime.Object
	Hub()
}

// Convertible is a version of a kind that converts to and from its Hub
// (controller-runtime's conversion.Convertible shape).
type Convertible interface {
	runtime.Object
	ConvertTo(dst Hub) error
	ConvertFrom(src Hub) error
}

// ConversionReviewGVK is the only kind of review Conversion answers.
var ConversionReviewGVK = apiextensionsv1.SchemeGroupVersion.WithKind("ConversionReview")

// Conversion answers ConversionReviews by converting each object through a
// scheme. Create it with NewConversion.
type Conversion struct {
	scheme *runtime.Scheme

	mu   sync.RWMutex
	hubs map[schema.GroupKind]hubEntry
}

type hubEntry struct {
	gvk schema.GroupVersionKind // empty Kind: the kind has no hub
	err error
}

// NewConversion returns a handler converting the kinds registered in scheme.
func NewConversion(scheme *runtime.Scheme) *Conversion {
	return &Conversion{scheme: scheme, hubs: map[schema.GroupKind]hubEntry{}}
}

// ServeHTTP answers one ConversionReview.
func (c *Conversion) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	x := exchanges.Get().(*exchange)
	defer x.release()
	req := &x.req
	reqErr := readBody(r, &x.body)
	if reqErr == nil {
		reqErr = readConversionReview(x.body.Bytes(), req)
	}
	if reqErr == nil && !req.hasRequest {
		reqErr = badRequest("ConversionReview has no request")
	}
	if reqErr != nil {
		writeJSON(w, reqErr.code, conversionAnswer(&apiextensionsv1.ConversionResponse{UID: req.uid, Result: failure(reqErr.msg)}))
		return
	}
	// The answer is written as it is converted, each object encoded once in
	// place, rather than encoded and then copied and compacted as a
	// RawExtension.
	buf := &x.answer
	buf.WriteString(`{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","response":{"uid":`)
	writeJSONString(buf, string(req.uid))
	buf.WriteString(`,"convertedObjects":[`)
	n := 0
	err := c.convertObjects(req.desiredAPIVersion, req.objects, req.decoder, func(obj runtime.Object) error {
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
		return x.enc.Encode(obj)
	})
	if err != nil {
		writeJSON(w, http.StatusOK, conversionAnswer(&apiextensionsv1.ConversionResponse{UID: req.uid, Result: failure(err.Error())}))
		return
	}
	buf.WriteString(`],"result":{"metadata":{},"status":"Success"}}}`)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	_, _ = w.Write(buf.Bytes())
}

// readConversionReview reads body into r, by the one-pass scan when it
// takes the review and otherwise by the general decoder.
func readConversionReview(body []byte, r *conversionRequest) *requestError {
	if scanConversionReview(body, r) {
		r.decoder = plainKeyDecoder
		return checkReviewKind(r.meta, ConversionReviewGVK)
	}
	*r = conversionRequest{objects: r.objects[:0], decoder: objectDecoder}
	return decodeConversionReview(body, r)
}

// decodeConversionReview reads body into r with the general decoder, which
// takes any review and describes what is wrong with one.
func decodeConversionReview(body []byte, r *conversionRequest) *requestError {
	var review apiextensionsv1.ConversionReview
	reqErr := decodeReview(body, ConversionReviewGVK, &review)
	r.meta = review.TypeMeta
	if req := review.Request; req != nil {
		r.hasRequest, r.uid, r.desiredAPIVersion = true, req.UID, req.DesiredAPIVersion
		for _, obj := range req.Objects {
			r.objects = append(r.objects, obj.Raw)
		}
	}
	return reqErr
}

// objectDecoder decodes the objects of a review into their Go types, which
// is most of a conversion's work. The review as a whole has been validated
// (by scanConversionReview or the standard decoder), so a faster,
// reflection-caching one reads each object: case-sensitive like Kubernetes'
// own decoding, numbers in untyped fields kept exact.
var objectDecoder = jsoniter.Config{CaseSensitive: true, UseNumber: true}.Froze()

// plainKeyDecoder is objectDecoder for objects whose keys are all known to
// be ASCII without escapes, as scanConversionReview checks: it matches the
// keys of large structs without copying them.
var plainKeyDecoder = jsoniter.Config{CaseSensitive: true, UseNumber: true, ObjectFieldMustBeSimpleString: true}.Froze()

// exchange holds the buffers one ConversionReview is read and answered
// with, reused from review to review.
type exchange struct {
	body, answer bytes.Buffer
	enc          *json.Encoder // encodes into answer, HTML unescaped
	req          conversionRequest
}

var exchanges = sync.Pool{New: func() any {
	x := new(exchange)
	x.enc = json.NewEncoder(&x.answer)
	x.enc.SetEscapeHTML(false)
	return x
}}

// maxPooledBytes bounds the buffers an exchange keeps: a rare large review
// does not pin its memory.
const maxPooledBytes = 1 << 20

// release empties x and pools it, unless its buffers grew large.
func (x *exchange) release() {
	if x.body.Cap() > maxPooledBytes || x.answer.Cap() > maxPooledBytes {
		return
	}
	x.body.Reset()
	x.answer.Reset()
	clear(x.req.objects)
	x.req = conversionRequest{objects: x.req.objects[:0]}
	exchanges.Put(x)
}

// writeJSONString writes s as a JSON string, escaped as json.Marshal
// escapes it.
func writeJSONString(buf *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			data, _ := json.Marshal(s) // a string always encodes
			buf.Write(data)
			return
		}
	}
	buf.WriteByte('"')
	buf.WriteString(s)
	buf.WriteByte('"')
}

// Review converts the objects of one request. Any failure fails the whole
// review, with the message of the first object that failed.
func (c *Conversion) Review(_ context.Context, req *apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse {
	resp := &apiextensionsv1.ConversionResponse{UID: req.UID}
	converted := make([]runtime.RawExtension, 0, len(req.Objects))
	objects := make([][]byte, len(req.Objects))
	for i, obj := range req.Objects {
		objects[i] = obj.Raw
	}
	err := c.convertObjects(req.DesiredAPIVersion, objects, objectDecoder, func(obj runtime.Object) error {
		data, err := json.Marshal(obj)
		converted = append(converted, runtime.RawExtension{Raw: data})
		return err
	})
	if err != nil {
		resp.Result = failure(err.Error())
		return resp
	}
	resp.ConvertedObjects = converted
	resp.Result = metav1.Status{Status: metav1.StatusSuccess}
	return resp
}

// convertObjects decodes objects with dec, converts them to
// desiredAPIVersion in order and hands each to write, stopping at the first
// failure, which it describes.
func (c *Conversion) convertObjects(desiredAPIVersion string, objects [][]byte, dec jsoniter.API, write func(runtime.Object) error) error {
	desired, err := schema.ParseGroupVersion(desiredAPIVersion)
	if err != nil || desired.Empty() {
		return fmt.Errorf("desiredAPIVersion %q is not a group/version", desiredAPIVersion)
	}
	for i, raw := range objects {
		if err := c.convertOne(raw, desired, dec, write); err != nil {
			return fmt.Errorf("converting object %d of %d to %s: %w", i+1, len(objects), desired, err)
		}
	}
	return nil
}

// convertOne decodes one object, converts it to version desired of its kind
// and writes it; a panic on the way is an error.
func (c *Conversion) convertOne(raw []byte, desired schema.GroupVersion, dec jsoniter.API, write func(runtime.Object) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("conversion panicked: %v", p)
		}
	}()
	apiVersion, kind, err := typeMeta(raw)
	if err != nil {
		return fmt.Errorf("decoding: %w", err)
	}
	srcGV, err := schema.ParseGroupVersion(apiVersion)
	if err != nil || kind == "" || srcGV.Version == "" {
		return fmt.Errorf("object has no apiVersion or kind")
	}
	srcGVK := srcGV.WithKind(kind)
	if srcGVK.Group != desired.Group {
		return fmt.Errorf("%s cannot convert to group %q", srcGVK, desired.Group)
	}
	src, err := c.newObject(srcGVK)
	if err != nil {
		return err
	}
	if err := dec.Unmarshal(raw, src); err != nil {
		return fmt.Errorf("decoding %s: %w", srcGVK, err)
	}
	if decoded := src.GetObjectKind().GroupVersionKind(); decoded != srcGVK {
		return fmt.Errorf("object gives apiVersion or kind twice: %s and %s", srcGVK, decoded)
	}
	dst, err := c.Convert(src, srcGVK, desired.WithKind(kind))
	if err != nil {
		return err
	}
	if err := write(dst); err != nil {
		return fmt.Errorf("encoding: %w", err)
	}
	return nil
}

// Convert converts src, an object of kind srcGVK, to version dstGVK of the
// same kind and returns the new object with its apiVersion and kind set.
func (c *Conversion) Convert(src runtime.Object, srcGVK, dstGVK schema.GroupVersionKind) (runtime.Object, error) {
	if srcGVK == dstGVK {
		src.GetObjectKind().SetGroupVersionKind(dstGVK)
		return src, nil
	}
	dst, err := c.newObject(dstGVK)
	if err != nil {
		return nil, err
	}
	hub, err := c.hubOf(srcGVK.GroupKind())
	switch {
	case err != nil:
		return nil, err
	case hub.Kind != "":
		err = c.viaHub(src, dst, hub)
	case c.scheme.Recognizes(srcGVK.GroupKind().WithVersion(runtime.APIVersionInternal)):
		var internal runtime.Object
		if internal, err = c.scheme.New(srcGVK.GroupKind().WithVersion(runtime.APIVersionInternal)); err == nil {
			if err = c.scheme.Convert(src, internal, nil); err == nil {
				err = c.scheme.Convert(internal, dst, nil)
			}
		}
	default:
		err = c.scheme.Convert(src, dst, nil)
	}
	if err != nil {
		return nil, err
	}
	dst.GetObjectKind().SetGroupVersionKind(dstGVK)
	return dst, nil
}

// viaHub converts between two versions of a hub-and-spoke kind.
func (c *Conversion) viaHub(src, dst runtime.Object, hubGVK schema.GroupVersionKind) error {
	if h, ok := src.(Hub); ok {
		spoke, err := convertible(dst, hubGVK)
		if err != nil {
			return err
		}
		return spoke.ConvertFrom(h)
	}
	spoke, err := convertible(src, hubGVK)
	if err != nil {
		return err
	}
	if h, ok := dst.(Hub); ok {
		return spoke.ConvertTo(h)
	}
	to, err := convertible(dst, hubGVK)
	if err != nil {
		return err
	}
	hubObj, err := c.scheme.New(hubGVK)
	if err != nil {
		return err
	}
	if err := spoke.ConvertTo(hubObj.(Hub)); err != nil {
		return err
	}
	return to.ConvertFrom(hubObj.(Hub))
}

func convertible(obj runtime.Object, hub schema.GroupVersionKind) (Convertible, error) {
	spoke, ok := obj.(Convertible)
	if !ok {
		return nil, fmt.Errorf("%T does not implement webhook.Convertible (ConvertTo and ConvertFrom the hub %s)", obj, hub.Version)
	}
	return spoke, nil
}

// hubOf finds the version of gk whose Go type implements Hub; a kind with none
// returns an empty GroupVersionKind, and one with several an error.
func (c *Conversion) hubOf(gk schema.GroupKind) (schema.GroupVersionKind, error) {
	c.mu.RLock()
	e, ok := c.hubs[gk]
	c.mu.RUnlock()
	if ok {
		return e.gvk, e.err
	}
	hubType := reflect.TypeFor[Hub]()
	var hubs []schema.GroupVersionKind
	for gvk, t := range c.scheme.AllKnownTypes() {
		if gvk.GroupKind() == gk && gvk.Version != runtime.APIVersionInternal && reflect.PointerTo(t).Implements(hubType) {
			hubs = append(hubs, gvk)
		}
	}
	e = hubEntry{}
	switch len(hubs) {
	case 0:
	case 1:
		e.gvk = hubs[0]
	default:
		slices.SortFunc(hubs, func(a, b schema.GroupVersionKind) int { return strings.Compare(a.Version, b.Version) })
		e.err = fmt.Errorf("kind %s has more than one hub version: %v", gk, hubs)
	}
	c.mu.Lock()
	c.hubs[gk] = e
	c.mu.Unlock()
	return e.gvk, e.err
}

// newObject creates an object of gvk, or says which versions the scheme knows.
func (c *Conversion) newObject(gvk schema.GroupVersionKind) (runtime.Object, error) {
	obj, err := c.scheme.New(gvk)
	if err == nil {
		return obj, nil
	}
	var known []string
	for k := range c.scheme.AllKnownTypes() {
		if k.GroupKind() == gvk.GroupKind() && k.Version != runtime.APIVersionInternal {
			known = append(known, k.Version)
		}
	}
	slices.Sort(known)
	if len(known) == 0 {
		return nil, fmt.Errorf("kind %s is not registered in the webhook's scheme", gvk.GroupKind())
	}
	return nil, fmt.Errorf("version %q of %s is not registered in the webhook's scheme (registered: %v)", gvk.Version, gvk.GroupKind(), known)
}

func failure(msg string) metav1.Status {
	return metav1.Status{Status: metav1.StatusFailure, Message: msg}
}

func conversionAnswer(resp *apiextensionsv1.ConversionResponse) *apiextensionsv1.ConversionReview {
	return &apiextensionsv1.ConversionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: ConversionReviewGVK.GroupVersion().String(), Kind: ConversionReviewGVK.Kind},
		Response: resp,
	}
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "webhook: encoding answer: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(data)
}
