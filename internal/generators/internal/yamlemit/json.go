package yamlemit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	yamlv2 "go.yaml.in/yaml/v2"
)

// JSONToYAML renders JSON text as sigs.k8s.io/yaml's JSONToYAML does, byte for byte, at a fraction of
// its cost: JSONToYAML reads the JSON with the YAML parser (most of its time) to get YAML's typing of
// numbers and then marshals the generic value with go-yaml v2. Here ParseJSON reads the text and Emit
// writes it as go-yaml would; for what Emit leaves to go-yaml, the value is turned into the generic
// value JSONToYAML builds (maps keyed by interface{}, slices, strings, booleans, nil, numbers typed by
// the YAML resolver) and marshalled with go-yaml.
func JSONToYAML(j []byte) ([]byte, error) {
	if v, ok := ParseJSON(j); ok {
		if out, ok := Emit(v); ok {
			return out, nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	y, err := yamlValue(v)
	if err != nil {
		return nil, err
	}
	return yamlv2.Marshal(y)
}

// yamlValue turns a value encoding/json decoded (with numbers as json.Number) into the value go-yaml v2
// unmarshals from the same JSON text into an interface{}.
func yamlValue(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[any]any, len(v))
		for k, e := range v {
			y, err := yamlValue(e)
			if err != nil {
				return nil, err
			}
			m[k] = y
		}
		return m, nil
	case []any:
		for i, e := range v {
			y, err := yamlValue(e)
			if err != nil {
				return nil, err
			}
			v[i] = y
		}
		return v, nil
	case json.Number:
		// A number literal is a plain scalar to the YAML parser, typed by its resolver (int, int64,
		// uint64 or float64).
		var y any
		if err := yamlv2.Unmarshal([]byte(v), &y); err != nil {
			return nil, err
		}
		return y, nil
	default: // string, bool, nil
		return v, nil
	}
}
