package listdecode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/intstr"
)

var (
	scheme = runtime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme)
)

func init() {
	if err := corev1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
}

// decoderFor returns the response decoder a client built on codecs.WithoutConversion() uses.
func decoderFor(t testing.TB, mediaType string) runtime.Decoder {
	t.Helper()
	d, err := runtime.NewClientNegotiator(codecs.WithoutConversion(), corev1.SchemeGroupVersion).Decoder(mediaType, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func encode(t testing.TB, mediaType string, obj runtime.Object) []byte {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), mediaType)
	if !ok {
		t.Fatal(mediaType)
	}
	data, err := runtime.Encode(codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), obj)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// into decodes a whole body the way rest.Result.Into does; it is the reference the streaming
// decode is compared with.
func into(decoder runtime.Decoder, body []byte, obj runtime.Object) error {
	if len(body) == 0 {
		return fmt.Errorf("0-length response")
	}
	out, _, err := decoder.Decode(body, nil, obj)
	if err != nil || out == obj {
		return err
	}
	if s, ok := out.(*metav1.Status); ok && s.Status != metav1.StatusSuccess {
		return apierrors.FromObject(s)
	}
	return nil
}

// outcome is what decoding a body gives: the error's type and text and the decoded list.
type outcome struct {
	errType string
	err     string
	list    *corev1.PodList
}

func errOutcome(err error, list *corev1.PodList) outcome {
	o := outcome{list: list}
	if err != nil {
		o.errType, o.err, o.list = fmt.Sprintf("%T", err), err.Error(), nil
	}
	return o
}

// buffered decodes body whole.
func buffered(t testing.TB, mediaType string, body []byte) outcome {
	list := &corev1.PodList{}
	return errOutcome(into(decoderFor(t, mediaType), body, list), list)
}

// streamed decodes body through the streaming path, reading it through wrap.
func streamed(t testing.TB, mediaType string, body []byte, wrap func(io.Reader) io.Reader) outcome {
	decoder := decoderFor(t, mediaType)
	list := &corev1.PodList{}
	target, ok := NewTarget(list)
	if !ok {
		t.Fatal("PodList is not a list target")
	}
	f := FormatOf(decoder)
	if !target.Supports(f) {
		t.Fatalf("%s is not streamed", mediaType)
	}
	err := Decode(wrap(bytes.NewReader(body)), f, target, decoder, func(b []byte) error { return into(decoder, b, list) })
	return errOutcome(err, list)
}

var readers = map[string]func(io.Reader) io.Reader{
	"whole":    func(r io.Reader) io.Reader { return r },
	"one byte": iotest.OneByteReader,
	"half":     iotest.HalfReader,
	"data+EOF": iotest.DataErrReader,
}

// compare checks that every way of reading body through the streaming path gives what the
// buffered decode gives.
func compare(t *testing.T, mediaType string, body []byte) {
	t.Helper()
	want := buffered(t, mediaType, body)
	for name, wrap := range readers {
		got := streamed(t, mediaType, body, wrap)
		if got.err != want.err || got.errType != want.errType {
			t.Fatalf("%s reader: error %s %q, want %s %q\nbody: %q", name, got.errType, got.err, want.errType, want.err, body)
		}
		if !reflect.DeepEqual(got.list, want.list) {
			t.Fatalf("%s reader: list differs\n got: %+v\nwant: %+v\nbody: %q", name, got.list, want.list, body)
		}
	}
}

func testPod(i int, name string) corev1.Pod {
	grace := int64(1) << 62
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "ns", ResourceVersion: fmt.Sprint(100 + i),
			Labels:      map[string]string{"app": "web", "ünïcödé": "日本語"},
			Annotations: map[string]string{"quote\"and\\slash": "line\nbreak \u2028 \x01"},
		},
		Spec: corev1.PodSpec{
			TerminationGracePeriodSeconds: &grace,
			Containers: []corev1.Container{{
				Name: "app", Image: "img:1",
				Ports:     []corev1.ContainerPort{{ContainerPort: int32(8000 + i)}},
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}},
				LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{
					HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromString("http")},
				}},
			}},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning},
	}
}

func testList(n int) *corev1.PodList {
	remaining := int64(9007199254740993)
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "42", Continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ==", RemainingItemCount: &remaining}}
	for i := range n {
		list.Items = append(list.Items, testPod(i, fmt.Sprintf("pod-%d-ω", i)))
	}
	return list
}

// jsonBodies are list bodies in JSON, most of which the API server never sends as they are.
func jsonBodies(t testing.TB) map[string][]byte {
	full := string(encode(t, runtime.ContentTypeJSON, testList(3)))
	item := string(encode(t, runtime.ContentTypeJSON, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "x"}}))
	return map[string][]byte{
		"encoded":                      []byte(full),
		"empty list":                   encode(t, runtime.ContentTypeJSON, &corev1.PodList{}),
		"empty items":                  []byte(`{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]}`),
		"null items":                   []byte(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":null}`),
		"no items":                     []byte(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"}}`),
		"no type":                      []byte(`{"items":[` + item + `]}`),
		"items first":                  []byte(`{"items":[` + item + `],"kind":"PodList","apiVersion":"v1","metadata":{"continue":"c"}}`),
		"whitespace":                   []byte(" \n{ \"kind\" : \"PodList\" ,\t\"apiVersion\":\"v1\",\r\n\"items\" : [ " + item + " , " + item + " ] } \n"),
		"unknown fields":               []byte(`{"kind":"PodList","apiVersion":"v1","x":{"a":[1,{"b":"]}"}]},"items":[{"metadata":{"name":"a","zz":1},"spec":{"unknown":[true,false,null]}}],"y":"}"}`),
		"escaped key":                  []byte(`{"kind":"PodList","apiVersion":"v1","\u0069tems":[` + item + `]}`),
		"case-variant key":             []byte(`{"kind":"PodList","apiVersion":"v1","Items":[` + item + `],"items":[]}`),
		"duplicate items":              []byte(`{"kind":"PodList","apiVersion":"v1","items":[` + item + `,` + item + `],"items":[{"metadata":{"namespace":"n"}}]}`),
		"null then items":              []byte(`{"kind":"PodList","apiVersion":"v1","items":null,"items":[` + item + `]}`),
		"items then null":              []byte(`{"kind":"PodList","apiVersion":"v1","items":[` + item + `],"items":null}`),
		"same kind after":              []byte(`{"kind":"PodList","apiVersion":"v1","items":[` + item + `],"kind":"PodList"}`),
		"kind only after":              []byte(`{"apiVersion":"v1","items":[` + item + `],"kind":"PodList"}`),
		"null item":                    []byte(`{"kind":"PodList","apiVersion":"v1","items":[null,` + item + `]}`),
		"large ints":                   []byte(`{"kind":"PodList","apiVersion":"v1","metadata":{"remainingItemCount":9223372036854775807},"items":[{"spec":{"activeDeadlineSeconds":9223372036854775807}}]}`),
		"escapes in strings":           []byte(`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a\\\"]}\\\\","labels":{"k":"\\\\"}}}]}`),
		"status success":               []byte(`{"kind":"Status","apiVersion":"v1","status":"Success","items":[]}`),
		"status failure":               []byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"gone","reason":"NotFound","code":404}`),
		"other kind":                   []byte(`{"kind":"ConfigMapList","apiVersion":"v1","items":[{"metadata":{"name":"cm"}}]}`),
		"unregistered kind":            []byte(`{"kind":"Nope","apiVersion":"v1","items":[]}`),
		"kind changes after":           []byte(`{"kind":"PodList","apiVersion":"v1","items":[` + item + `],"kind":"Nope"}`),
		"not an object":                []byte(`[1,2]`),
		"protobuf as json":             encode(t, runtime.ContentTypeProtobuf, testList(1)),
		"empty":                        nil,
		"type error in item":           []byte(`{"kind":"PodList","apiVersion":"v1","items":[` + item + `,{"metadata":{"name":5}},{"spec":"x"}]}`),
		"type error in head":           []byte(`{"kind":"PodList","apiVersion":"v1","metadata":{"continue":5},"items":[` + item + `]}`),
		"type error after":             []byte(`{"kind":"PodList","apiVersion":"v1","items":[` + item + `],"metadata":{"continue":5}}`),
		"bad quantity":                 []byte(`{"kind":"PodList","apiVersion":"v1","items":[{"spec":{"containers":[{"resources":{"limits":{"cpu":"lots"}}}]}},` + item + `]}`),
		"item is a string":             []byte(`{"kind":"PodList","apiVersion":"v1","items":["x",` + item + `]}`),
		"items is a string":            []byte(`{"kind":"PodList","apiVersion":"v1","items":"x"}`),
		"garbage after":                []byte(`{"kind":"PodList","apiVersion":"v1","items":[]} x`),
		"garbage after items":          []byte(`{"kind":"PodList","apiVersion":"v1","items":[] x}`),
		"garbage after item":           []byte(`{"kind":"PodList","apiVersion":"v1","items":[{} x]}`),
		"missing comma":                []byte(`{"kind":"PodList","apiVersion":"v1","items":[{}{}]}`),
		"bad literal":                  []byte(`{"kind":"PodList","apiVersion":"v1","items":[{},nul]}`),
		"number item":                  []byte(`{"kind":"PodList","apiVersion":"v1","items":[1e999]}`),
		"mismatched brackets":          []byte(`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{]}]}`),
		"type error then syntax error": []byte(`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":5}},` + item + `,{]}`),
		"second object":                []byte(`{"kind":"PodList","apiVersion":"v1","items":[]}{}`),
		"trailing comma":               []byte(`{"kind":"PodList","apiVersion":"v1","items":[{},],}`),
		"bad utf8":                     []byte("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":\"\xff\"}}]}"),
		"control character":            []byte("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":\"\x01\"}}]}"),
	}
}

func TestJSONMatchesBufferedDecode(t *testing.T) {
	for name, body := range jsonBodies(t) {
		t.Run(name, func(t *testing.T) { compare(t, runtime.ContentTypeJSON, body) })
	}
}

// TestJSONTruncatedAndCorrupted cuts an encoded list at every byte and overwrites each byte with
// characters that break JSON in different ways.
func TestJSONTruncatedAndCorrupted(t *testing.T) {
	body := encode(t, runtime.ContentTypeJSON, testList(2))
	for i := range body {
		compare(t, runtime.ContentTypeJSON, body[:i])
		for _, c := range []byte{'x', '"', '}', ']', ',', '\\', '1'} {
			corrupt := bytes.Clone(body)
			corrupt[i] = c
			compare(t, runtime.ContentTypeJSON, corrupt)
		}
	}
}

// TestKindAfterItemsChangingTheTypeIsAnError covers the one JSON body whose streamed decode
// differs from the buffered one: only the error text is the package's own.
func TestKindAfterItemsChangingTheTypeIsAnError(t *testing.T) {
	body := []byte(`{"kind":"PodList","apiVersion":"v1","items":[{}],"kind":"Status","status":"Success"}`)
	if got := buffered(t, runtime.ContentTypeJSON, body); got.err != "" {
		t.Fatalf("buffered: %s", got.err)
	}
	got := streamed(t, runtime.ContentTypeJSON, body, readers["whole"])
	if !strings.Contains(got.err, "changes its type after its items") {
		t.Fatalf("streamed: %q", got.err)
	}
}

// protoBodies are list bodies in the protobuf envelope.
func protoBodies(t testing.TB) map[string][]byte {
	full := encode(t, runtime.ContentTypeProtobuf, testList(3))
	var unk runtime.Unknown
	if err := unk.Unmarshal(full[4:]); err != nil {
		t.Fatal(err)
	}
	envelope := func(fields ...[]byte) []byte { return append(bytes.Clone(protoMagic), bytes.Join(fields, nil)...) }
	typeMeta := func(apiVersion, kind string) []byte {
		tm := runtime.TypeMeta{APIVersion: apiVersion, Kind: kind}
		data, _ := tm.Marshal()
		return field(1, data)
	}
	pod, _ := (&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}).Marshal()
	meta, _ := (&metav1.ListMeta{Continue: "c"}).Marshal()
	head := typeMeta("v1", "PodList")
	return map[string][]byte{
		"encoded":               full,
		"empty list":            encode(t, runtime.ContentTypeProtobuf, &corev1.PodList{}),
		"raw before type":       envelope(field(2, unk.Raw), typeMeta("v1", "PodList")),
		"content type fields":   envelope(head, field(3, []byte("")), field(2, field(2, pod)), field(4, []byte("application/x"))),
		"unknown list fields":   envelope(head, field(2, bytes.Join([][]byte{field(9, []byte("zz")), {0x50, 0x07}, {0x59, 1, 2, 3, 4, 5, 6, 7, 8}, {0x5d, 1, 2, 3, 4}, field(2, pod), field(1, meta)}, nil))),
		"list meta twice":       envelope(head, field(2, append(field(1, meta), field(1, []byte{0x10, 0x01})...))),
		"status":                encode(t, runtime.ContentTypeProtobuf, &metav1.Status{Status: metav1.StatusFailure, Message: "gone", Reason: metav1.StatusReasonNotFound, Code: 404}),
		"other kind":            encode(t, runtime.ContentTypeProtobuf, &corev1.ConfigMapList{Items: []corev1.ConfigMap{{ObjectMeta: metav1.ObjectMeta{Name: "cm"}}}}),
		"unregistered kind":     envelope(typeMeta("v1", "Nope"), field(2, nil)),
		"no type":               envelope(field(2, field(2, pod))),
		"magic only":            bytes.Clone(protoMagic),
		"bad magic":             []byte("k8s\x01abc"),
		"json as protobuf":      encode(t, runtime.ContentTypeJSON, testList(1)),
		"empty":                 nil,
		"bad item":              envelope(head, field(2, append(field(2, pod), field(2, []byte{0x0a, 0x05, 0x01})...))),
		"items wrong wire type": envelope(head, field(2, append(field(2, pod), 0x10, 0x01))),
		"group in list":         envelope(head, field(2, append(field(2, pod), 0x1b, 0x1c))),
		"end group in list":     envelope(head, field(2, append(field(2, pod), 0x0c))),
		"field zero":            envelope(head, field(2, append(field(2, pod), 0x02, 0x00))),
		"varint overflow":       envelope(head, field(2, append(field(2, pod), 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01))),
		"item longer than raw":  envelope(head, field(2, append(field(2, pod), 0x12, 0x7f, 0x01))),
		"huge item length":      envelope(head, field(2, append(field(2, pod), 0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f))),
		"bad list meta":         envelope(head, field(2, append(field(2, pod), field(1, []byte{0x0a, 0x09})...))),
		"bad trailing field":    envelope(head, field(2, field(2, pod)), []byte{0x22, 0x05, 'a'}),
		"second raw":            envelope(head, field(2, field(2, pod)), field(2, field(2, []byte{0x0a, 0x03, 0x0a, 0x01, 'q'}))),
		"empty second raw":      envelope(head, field(2, field(2, pod)), field(2, nil)),
		"type changes after":    envelope(head, field(2, field(2, pod)), typeMeta("v1", "ConfigMapList")),
		"same type after":       envelope(head, field(2, field(2, pod)), head),
		"bad head field":        envelope(head, []byte{0x1a, 0x09}),
	}
}

// field encodes a length-delimited protobuf field.
func field(num int, data []byte) []byte {
	b := appendVarint(nil, uint64(num)<<3|wireBytes)
	b = appendVarint(b, uint64(len(data)))
	return append(b, data...)
}

func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func TestProtobufMatchesBufferedDecode(t *testing.T) {
	for name, body := range protoBodies(t) {
		if name == "type changes after" {
			continue
		}
		t.Run(name, func(t *testing.T) { compare(t, runtime.ContentTypeProtobuf, body) })
	}
}

// TestProtobufTruncatedAndCorrupted cuts an encoded list at every byte and flips bits of every byte.
func TestProtobufTruncatedAndCorrupted(t *testing.T) {
	body := encode(t, runtime.ContentTypeProtobuf, testList(2))
	for i := range body {
		compare(t, runtime.ContentTypeProtobuf, body[:i])
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			corrupt := bytes.Clone(body)
			corrupt[i] ^= mask
			compare(t, runtime.ContentTypeProtobuf, corrupt)
		}
	}
}

// TestProtobufTypeChangedAfterRawIsAnError covers the protobuf body whose streamed decode differs
// from the buffered one: the envelope's type set again, to another kind, after the streamed Raw.
func TestProtobufTypeChangedAfterRawIsAnError(t *testing.T) {
	body := protoBodies(t)["type changes after"]
	if got := buffered(t, runtime.ContentTypeProtobuf, body); got.err != "" || len(got.list.Items) != 0 {
		t.Fatalf("buffered: %q, %+v", got.err, got.list)
	}
	got := streamed(t, runtime.ContentTypeProtobuf, body, readers["whole"])
	if !strings.Contains(got.err, "changes its type after the list") {
		t.Fatalf("streamed: %q", got.err)
	}
}

// TestReadErrorsAreReturned checks that a failing reader's error comes back, wherever it fails.
func TestReadErrorsAreReturned(t *testing.T) {
	boom := errors.New("connection reset")
	for _, mediaType := range []string{runtime.ContentTypeJSON, runtime.ContentTypeProtobuf} {
		body := encode(t, mediaType, testList(2))
		for _, n := range []int{0, 3, 40, len(body) / 2, len(body) - 1, len(body)} {
			r := io.MultiReader(bytes.NewReader(body[:n]), iotest.ErrReader(boom))
			got := streamed(t, mediaType, nil, func(io.Reader) io.Reader { return r })
			if got.err != boom.Error() {
				t.Errorf("%s cut at %d: error %q, want %q", mediaType, n, got.err, boom)
			}
		}
	}
}

func TestTargetsAndFormats(t *testing.T) {
	for _, tc := range []struct {
		obj            runtime.Object
		json, protobuf bool
	}{
		{&corev1.PodList{}, true, true},
		{&metav1.PartialObjectMetadataList{}, true, true},
		{&corev1.Pod{}, false, false},
		{&unstructured.UnstructuredList{}, false, false},
		{&metav1.Status{}, false, false},
		{(*corev1.PodList)(nil), false, false},
		{nil, false, false},
	} {
		target, ok := NewTarget(tc.obj)
		if ok != (tc.json || tc.protobuf) || ok && (target.Supports(JSON) != tc.json || target.Supports(Protobuf) != tc.protobuf || target.Supports(Unsupported)) {
			t.Errorf("%T: target %v", tc.obj, ok)
		}
	}

	yaml, _ := runtime.NewClientNegotiator(codecs.WithoutConversion(), corev1.SchemeGroupVersion).Decoder(runtime.ContentTypeYAML, nil)
	strict := serializer.NewCodecFactory(scheme, serializer.EnableStrict).WithoutConversion()
	strictJSON, _ := runtime.NewClientNegotiator(strict, corev1.SchemeGroupVersion).Decoder(runtime.ContentTypeJSON, nil)
	converting, _ := runtime.NewClientNegotiator(codecs, corev1.SchemeGroupVersion).Decoder(runtime.ContentTypeJSON, nil)
	for _, tc := range []struct {
		name    string
		decoder runtime.Decoder
		want    Format
	}{
		{"json", decoderFor(t, runtime.ContentTypeJSON), JSON},
		{"protobuf", decoderFor(t, runtime.ContentTypeProtobuf), Protobuf},
		{"yaml", yaml, Unsupported},
		{"strict json", strictJSON, Unsupported},
		{"converting", converting, Unsupported},
		{"unstructured", unstructured.UnstructuredJSONScheme, Unsupported},
	} {
		if got := FormatOf(tc.decoder); got != tc.want {
			t.Errorf("%s: format %d, want %d", tc.name, got, tc.want)
		}
	}
}

func FuzzJSON(f *testing.F) {
	for _, body := range jsonBodies(f) {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		want := buffered(t, runtime.ContentTypeJSON, body)
		got := streamed(t, runtime.ContentTypeJSON, body, readers["whole"])
		if strings.Contains(got.err, "changes its type after its items") {
			return // see TestKindAfterItemsChangingTheTypeIsAnError
		}
		if got.err != want.err || got.errType != want.errType || !reflect.DeepEqual(got.list, want.list) {
			t.Fatalf("streamed %q %+v, buffered %q %+v", got.err, got.list, want.err, want.list)
		}
	})
}

func FuzzProtobuf(f *testing.F) {
	for name, body := range protoBodies(f) {
		if name != "type changes after" {
			f.Add(body)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		want := buffered(t, runtime.ContentTypeProtobuf, body)
		got := streamed(t, runtime.ContentTypeProtobuf, body, readers["whole"])
		if strings.Contains(got.err, "changes its type after the list") {
			return // see TestProtobufTypeChangedAfterRawIsAnError
		}
		if got.err != want.err || got.errType != want.errType || !reflect.DeepEqual(got.list, want.list) {
			t.Fatalf("streamed %q %+v, buffered %q %+v", got.err, got.list, want.err, want.list)
		}
	})
}

// TestFillerIsSkipped checks that filler of every length from past what rawStart keeps to past the
// first varint boundaries has that length and decodes into a list without error or effect.
func TestFillerIsSkipped(t *testing.T) {
	var d protoList
	for n := uint64(rawStartSize + 1); n < 20000; n++ {
		filler := d.appendFiller(nil, n)
		var list corev1.PodList
		if uint64(len(filler)) != n || list.Unmarshal(filler) != nil || !reflect.DeepEqual(list, corev1.PodList{}) {
			t.Fatalf("filler of %d: %d bytes, %+v", n, len(filler), list)
		}
	}
}

// TestJSONIntoListWithItems decodes into lists that already hold items, which encoding/json
// decodes over in place.
func TestJSONIntoListWithItems(t *testing.T) {
	decoder := decoderFor(t, runtime.ContentTypeJSON)
	for _, body := range [][]byte{
		encode(t, runtime.ContentTypeJSON, testList(2)),
		encode(t, runtime.ContentTypeJSON, testList(7)),
		[]byte(`{"kind":"PodList","apiVersion":"v1","items":[]}`),
	} {
		existing := func() *corev1.PodList {
			list := testList(5)
			list.Items = list.Items[:3]
			list.Items[0].Spec.NodeName = "kept unless replaced"
			return list
		}
		want, got := existing(), existing()
		wantErr := into(decoder, body, want)
		target, _ := NewTarget(got)
		gotErr := Decode(bytes.NewReader(body), JSON, target, decoder, func(b []byte) error { return into(decoder, b, got) })
		if wantErr != nil || gotErr != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("streamed %v %+v\nbuffered %v %+v", gotErr, got, wantErr, want)
		}
	}
}
