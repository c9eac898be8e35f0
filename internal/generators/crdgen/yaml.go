package crdgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
)

// jsonToYAML renders JSON text as sigs.k8s.io/yaml's JSONToYAML does, byte for byte, at a fraction of
// its cost: JSONToYAML reads the JSON with the YAML parser (most of its time) to get YAML's typing of
// numbers and then marshals the generic value with go-yaml v2. Here encoding/json reads the text and
// emitYAML writes it as go-yaml would; for what emitYAML leaves to go-yaml, the value is turned into the
// generic value JSONToYAML builds (maps keyed by interface{}, slices, strings, booleans, nil, numbers
// typed by the YAML resolver) and marshalled with go-yaml.
func jsonToYAML(j []byte) ([]byte, error) {
	if v, ok := parseJSON(j); ok {
		if out, ok := emitYAML(v); ok {
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

// docYAML writes doc as jsonToYAML writes its JSON, without encoding the schemas (most of the bytes) to
// JSON and reading them back: the document around them goes through encoding/json, the schemas are
// turned into parseJSON's values directly, as render writes them (descriptions capped at maxDescLen, no
// bookkeeping; see finishedMember). It reports false when that cannot be done the same way.
func docYAML(doc *crdDoc, maxDescLen int) ([]byte, bool) {
	shell := *doc
	shell.Spec.Versions = slices.Clone(doc.Spec.Versions)
	for i := range shell.Spec.Versions {
		shell.Spec.Versions[i].Schema = nil
	}
	j, err := json.Marshal(&shell)
	if err != nil {
		return nil, false
	}
	v, ok := parseJSON(j)
	if !ok {
		return nil, false
	}
	root, _ := v.(jsonObject)
	spec, _ := member(root, "spec").(jsonObject)
	versions, _ := member(spec, "versions").([]any)
	if len(versions) != len(doc.Spec.Versions) {
		return nil, false
	}
	for i, ver := range versions {
		obj, _ := ver.(jsonObject)
		at := slices.IndexFunc(obj, func(m jsonMember) bool { return m.key == "schema" })
		if at < 0 || obj[at].value != nil {
			return nil, false
		}
		if obj[at].value, ok = jsonTree(doc.Spec.Versions[i].Schema, nodeMap, maxDescLen); !ok {
			return nil, false
		}
	}
	return emitYAML(root)
}

// member returns the value of obj's member key, or nil.
func member(obj jsonObject, key string) any {
	for _, m := range obj {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// jsonTree turns v into what parseJSON reads from json.Marshal(v): maps, slices, strings, booleans and
// integers directly, anything else through encoding/json. v is a schema tree, or a value in one, written
// out as finishedMember says for a map of the mode and descriptions capped at limit.
func jsonTree(v any, mode, limit int) (any, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case string:
		if utf8.ValidString(v) { // encoding/json replaces invalid bytes
			return v, true
		}
	case bool:
		return v, true
	case int:
		return json.Number(strconv.Itoa(v)), true
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), true
	case int32:
		return json.Number(strconv.FormatInt(int64(v), 10)), true
	case map[string]any:
		if v == nil {
			return nil, true
		}
		obj := make(jsonObject, 0, len(v))
		for k, e := range v {
			e, m, keep := finishedMember(k, e, mode, limit)
			if !keep {
				continue
			}
			if !utf8.ValidString(k) {
				return nil, false
			}
			t, ok := jsonTree(e, m, limit)
			if !ok {
				return nil, false
			}
			obj = append(obj, jsonMember{k, t})
		}
		return obj, true
	case []any:
		if v == nil {
			return nil, true
		}
		list := make([]any, len(v))
		for i, e := range v {
			t, ok := jsonTree(e, elementMode(mode), limit)
			if !ok {
				return nil, false
			}
			list[i] = t
		}
		return list, true
	case []string:
		if v == nil {
			return nil, true
		}
		list := make([]any, len(v))
		for i, e := range v {
			t, ok := jsonTree(e, plainMap, limit)
			if !ok {
				return nil, false
			}
			list[i] = t
		}
		return list, true
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	return parseJSON(b)
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
