package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// patchOp is one RFC 6902 operation.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// jsonPatch returns the JSON patch (RFC 6902) that turns sent, the object the
// API server sent, into after, the mutated object as the Go type encodes it.
// before is the unmutated object as the Go type encodes it: where before and
// after agree the function changed nothing, so differences from sent there
// (fields the type does not know, a null the type writes) are left alone. It
// returns nil when there is nothing to change.
func jsonPatch(sent, before, after []byte) ([]byte, error) {
	var s, b, a any
	for _, doc := range []struct {
		data []byte
		into *any
		what string
	}{{sent, &s, "object sent"}, {before, &b, "decoded object"}, {after, &a, "mutated object"}} {
		// Numbers stay json.Number so 64-bit integers keep every digit.
		dec := json.NewDecoder(bytes.NewReader(doc.data))
		dec.UseNumber()
		if err := dec.Decode(doc.into); err != nil {
			return nil, fmt.Errorf("%s: %w", doc.what, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s: data after the object", doc.what)
		}
	}
	var ops []patchOp
	diff(&ops, "", s, b, true, a)
	if len(ops) == 0 {
		return nil, nil
	}
	for i := range ops {
		if ops[i].Op != "remove" && ops[i].Value == nil {
			ops[i].Value = json.RawMessage("null")
		}
	}
	return json.Marshal(ops)
}

// diff appends the operations turning sent into after at path. known says
// whether the type's encoding of the unmutated object has a value (before)
// here.
func diff(ops *[]patchOp, path string, sent, before any, known bool, after any) {
	if known && reflect.DeepEqual(before, after) {
		return // untouched by the function
	}
	if reflect.DeepEqual(sent, after) {
		return
	}
	sentObj, ok1 := sent.(map[string]any)
	afterObj, ok2 := after.(map[string]any)
	if !ok1 || !ok2 {
		*ops = append(*ops, patchOp{Op: "replace", Path: path, Value: after})
		return
	}
	beforeObj, _ := before.(map[string]any)
	for _, key := range sortedKeys(sentObj) {
		child := path + "/" + escapePointer(key)
		b, inBefore := beforeObj[key]
		v, inAfter := afterObj[key]
		switch {
		case inAfter:
			diff(ops, child, sentObj[key], b, known && inBefore, v)
		case known && inBefore:
			*ops = append(*ops, patchOp{Op: "remove", Path: child}) // the function removed it
		}
		// Neither: a field the Go type does not know; keep it.
	}
	for _, key := range sortedKeys(afterObj) {
		if _, inSent := sentObj[key]; inSent {
			continue
		}
		if b, inBefore := beforeObj[key]; known && inBefore && reflect.DeepEqual(b, afterObj[key]) {
			continue // written by the type's encoding (such as a null timestamp), not the function
		}
		*ops = append(*ops, patchOp{Op: "add", Path: path + "/" + escapePointer(key), Value: afterObj[key]})
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// escapePointer escapes a key as a JSON pointer token (RFC 6901).
func escapePointer(key string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}
