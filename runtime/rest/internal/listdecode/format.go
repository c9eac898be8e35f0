package listdecode

import (
	"encoding/json"
	"io"

	"k8s.io/apimachinery/pkg/runtime"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
)

// Format is the encoding of a list body this package can stream.
type Format int

const (
	// Unsupported bodies keep the buffered path.
	Unsupported Format = iota
	// JSON is application/json decoded by the non-strict JSON serializer.
	JSON
	// Protobuf is the Kubernetes protobuf envelope.
	Protobuf
)

// FormatOf returns the Format decoder reads, or Unsupported when decoder is anything but the
// apimachinery JSON (non-strict, not YAML) or protobuf serializer wrapped to decode without
// conversion, as the WithoutConversion codec factories give it: other decoders may convert,
// default or check more than the item-by-item decode does.
func FormatOf(decoder runtime.Decoder) Format {
	d, ok := decoder.(runtime.WithoutVersionDecoder)
	if !ok {
		return Unsupported
	}
	switch s := d.Decoder.(type) {
	case *jsonserializer.Serializer:
		var options struct {
			YAML   string `json:"yaml"`
			Strict string `json:"strict"`
		}
		if json.Unmarshal([]byte(s.Identifier()), &options) == nil && options.YAML == "false" && options.Strict == "false" {
			return JSON
		}
	case *protobuf.Serializer:
		return Protobuf
	}
	return Unsupported
}

// Supports reports whether t can be streamed from a body in format f.
func (t *Target) Supports(f Format) bool {
	switch f {
	case JSON:
		return t.json
	case Protobuf:
		return t.protoField != 0
	}
	return false
}

// Decode decodes the list body read from r, in format f, into t, which must support f. decoder is
// the response decoder and buffered decodes a whole body into t the way Result.Into does: it
// decodes the bodies that are not streamed and reports errors as the buffered path would.
func Decode(r io.Reader, f Format, t *Target, decoder runtime.Decoder, buffered func(body []byte) error) error {
	if f == Protobuf {
		return decodeProtobuf(r, t, decoder, buffered)
	}
	return decodeJSON(r, t, decoder, buffered)
}
