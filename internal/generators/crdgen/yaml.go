package crdgen

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/kgen-dev/kgen/internal/generators/internal/yamlemit"
)

// docYAML writes doc as yamlemit.JSONToYAML writes its JSON, without encoding the schemas (most of the bytes) to
// JSON and reading them back: the document around them goes through encoding/json, the schemas are
// turned into yamlemit.ParseJSON's values directly, as render writes them (descriptions capped at maxDescLen, no
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
	v, ok := yamlemit.ParseJSON(j)
	if !ok {
		return nil, false
	}
	root, _ := v.(yamlemit.Map)
	spec, _ := member(root, "spec").(yamlemit.Map)
	versions, _ := member(spec, "versions").([]any)
	if len(versions) != len(doc.Spec.Versions) {
		return nil, false
	}
	for i, ver := range versions {
		obj, _ := ver.(yamlemit.Map)
		at := slices.IndexFunc(obj, func(m yamlemit.Member) bool { return m.Key == "schema" })
		if at < 0 || obj[at].Value != nil {
			return nil, false
		}
		if obj[at].Value, ok = jsonTree(doc.Spec.Versions[i].Schema, nodeMap, maxDescLen); !ok {
			return nil, false
		}
	}
	return yamlemit.Emit(root)
}

// member returns the value of obj's member key, or nil.
func member(obj yamlemit.Map, key string) any {
	for _, m := range obj {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// jsonTree turns v into what yamlemit.ParseJSON reads from json.Marshal(v): maps, slices, strings, booleans and
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
		obj := make(yamlemit.Map, 0, len(v))
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
			obj = append(obj, yamlemit.Member{Key: k, Value: t})
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
	return yamlemit.ParseJSON(b)
}
