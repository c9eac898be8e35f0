package listdecode

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// protoUnmarshaler is implemented by protobuf-generated API types: Unmarshal merges the encoded
// fields into the receiver without resetting it.
type protoUnmarshaler interface {
	Unmarshal(data []byte) error
}

var (
	jsonUnmarshalerType  = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType  = reflect.TypeFor[encoding.TextUnmarshaler]()
	protoUnmarshalerType = reflect.TypeFor[protoUnmarshaler]()
)

// Target is a list object whose Items slice can be filled one item at a time.
type Target struct {
	obj runtime.Object
	// items is the settable Items slice of obj.
	items reflect.Value
	// json reports whether the JSON path applies: the list and its Items slice decode with the
	// standard struct and slice rules.
	json bool
	// protoField is the protobuf field number of Items, or 0 when the protobuf path does not apply.
	protoField uint64
}

// NewTarget returns the Target for obj when obj is a pointer to a typed list struct: an exported
// Items slice of structs, tagged json:"items". Unstructured objects and types with their own JSON
// decoding keep the buffered path.
func NewTarget(obj runtime.Object) (*Target, bool) {
	if _, ok := obj.(runtime.Unstructured); ok || obj == nil {
		return nil, false
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	field, ok := v.Elem().Type().FieldByName("Items")
	if !ok || !field.IsExported() || len(field.Index) != 1 || field.Type.Kind() != reflect.Slice ||
		field.Type.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	t := &Target{obj: obj, items: v.Elem().Field(field.Index[0])}
	name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
	t.json = name == "items" && !decodesItself(v.Type()) && !decodesItself(reflect.PointerTo(field.Type))
	if v.Type().Implements(protoUnmarshalerType) && reflect.PointerTo(field.Type.Elem()).Implements(protoUnmarshalerType) {
		t.protoField = protoFieldNumber(field.Tag.Get("protobuf"))
	}
	return t, t.json || t.protoField != 0
}

// decodesItself reports whether values of pointer type p decode JSON with their own method.
func decodesItself(p reflect.Type) bool {
	return p.Implements(jsonUnmarshalerType) || p.Implements(textUnmarshalerType)
}

// protoFieldNumber returns the field number of a repeated message field from its protobuf struct
// tag (e.g. "bytes,2,rep,name=items"), or 0.
func protoFieldNumber(tag string) uint64 {
	parts := strings.Split(tag, ",")
	if len(parts) < 3 || parts[0] != "bytes" || parts[2] != "rep" {
		return 0
	}
	n, err := strconv.ParseUint(parts[1], 10, 29)
	if err != nil {
		return 0
	}
	return n
}

// element returns the address of item i, growing the slice the way encoding/json does when it
// decodes an array into an existing slice: capacity is grown by one when needed and elements
// beyond the old length are reused as they are.
func (t *Target) element(i int) any {
	if i >= t.items.Cap() {
		t.items.Grow(1)
	}
	if i >= t.items.Len() {
		t.items.SetLen(i + 1)
	}
	return t.items.Index(i).Addr().Interface()
}

// finishArray truncates the slice to the n decoded items; an empty array gives an empty, non-nil
// slice, as in encoding/json.
func (t *Target) finishArray(n int) {
	if n < t.items.Len() {
		t.items.SetLen(n)
	}
	if n == 0 {
		t.items.Set(reflect.MakeSlice(t.items.Type(), 0, 0))
	}
}
