package dynamic

import (
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
)

var (
	versionV1 = schema.GroupVersion{Version: "v1"}
	// metaScheme knows the meta/v1 types exchanged alongside unstructured objects: options, Status, WatchEvent.
	metaScheme = func() *runtime.Scheme {
		s := runtime.NewScheme()
		metav1.AddToGroupVersion(s, versionV1)
		return s
	}()
	parameterCodec = runtime.NewParameterCodec(metaScheme)
)

// unstructuredCodec encodes and decodes unstructured JSON; a v1 Status comes back as *metav1.Status so
// callers (and reflectors) can treat error events like those of typed clients.
type unstructuredCodec struct{}

func (unstructuredCodec) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	obj, gvk, err := unstructured.UnstructuredJSONScheme.Decode(data, defaults, into)
	if err != nil {
		return nil, gvk, err
	}
	if u, ok := obj.(*unstructured.Unstructured); ok && into == nil && u.GetKind() == "Status" && u.GetAPIVersion() == "v1" {
		status := &metav1.Status{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, status); err == nil {
			return status, gvk, nil
		}
	}
	return obj, gvk, nil
}

func (unstructuredCodec) Encode(obj runtime.Object, w io.Writer) error {
	return unstructured.UnstructuredJSONScheme.Encode(obj, w)
}

func (unstructuredCodec) Identifier() runtime.Identifier {
	return unstructured.UnstructuredJSONScheme.Identifier()
}

// negotiatedSerializer offers JSON only: unstructured objects have no protobuf form.
type negotiatedSerializer struct{}

func (negotiatedSerializer) SupportedMediaTypes() []runtime.SerializerInfo {
	return []runtime.SerializerInfo{{
		MediaType:        runtime.ContentTypeJSON,
		MediaTypeType:    "application",
		MediaTypeSubType: "json",
		EncodesAsText:    true,
		Serializer:       unstructuredCodec{},
		StreamSerializer: &runtime.StreamSerializerInfo{
			EncodesAsText: true,
			Serializer:    json.NewSerializerWithOptions(json.DefaultMetaFactory, metaScheme, metaScheme, json.SerializerOptions{}),
			Framer:        json.Framer,
		},
	}}
}

func (negotiatedSerializer) EncoderForVersion(e runtime.Encoder, _ runtime.GroupVersioner) runtime.Encoder {
	return e
}

func (negotiatedSerializer) DecoderToVersion(d runtime.Decoder, _ runtime.GroupVersioner) runtime.Decoder {
	return d
}
