package webhook

import (
	"bytes"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	sigsjson "sigs.k8s.io/json"
)

// typeMeta reads the apiVersion and kind of a JSON object. The API server
// writes them first, so a scan of the object's start usually finds both;
// anything the scan does not expect (an escape in a key, a value that is not
// a plain string) is left to the JSON decoder.
func typeMeta(raw []byte) (apiVersion, kind string, err error) {
	if apiVersion, kind, ok := scanTypeMeta(raw); ok {
		return apiVersion, kind, nil
	}
	var meta metav1.TypeMeta
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, &meta); err != nil {
		return "", "", err
	}
	return meta.APIVersion, meta.Kind, nil
}

// scanTypeMeta reads top-level members until it has apiVersion and kind, or
// the object ends. It does not validate what it skips: the object is decoded
// in full afterwards, and a decoded apiVersion or kind that differs (a
// duplicate key) is caught there.
func scanTypeMeta(data []byte) (apiVersion, kind string, ok bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return "", "", false
	}
	i++
	var haveVersion, haveKind bool
	for {
		i = skipSpace(data, i)
		if i < len(data) && data[i] == '}' {
			return apiVersion, kind, true
		}
		key, next, ok := plainString(data, i)
		if !ok {
			return "", "", false
		}
		i = skipSpace(data, next)
		if i >= len(data) || data[i] != ':' {
			return "", "", false
		}
		i = skipSpace(data, i+1)
		switch key {
		case "apiVersion", "kind":
			value, next, ok := plainString(data, i)
			if !ok {
				return "", "", false
			}
			if key == "kind" {
				kind, haveKind = value, true
			} else {
				apiVersion, haveVersion = value, true
			}
			i = next
			if haveKind && haveVersion {
				return apiVersion, kind, true
			}
		default:
			if i, ok = skipValue(data, i); !ok {
				return "", "", false
			}
		}
		i = skipSpace(data, i)
		if i < len(data) && data[i] == ',' {
			i++
			continue
		}
		if i < len(data) && data[i] == '}' {
			return apiVersion, kind, true
		}
		return "", "", false
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// plainString reads a string without escapes at data[i], returning it and
// the index after its closing quote.
func plainString(data []byte, i int) (string, int, bool) {
	if i >= len(data) || data[i] != '"' {
		return "", 0, false
	}
	end := bytes.IndexByte(data[i+1:], '"')
	if end < 0 {
		return "", 0, false
	}
	s := data[i+1 : i+1+end]
	if bytes.IndexByte(s, '\\') >= 0 {
		return "", 0, false
	}
	return string(s), i + 2 + end, true
}

// skipValue returns the index after the JSON value at data[i].
func skipValue(data []byte, i int) (int, bool) {
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			i++
			for i < len(data) && data[i] != '"' {
				if data[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(data) {
				return 0, false
			}
			i++
		case '{', '[':
			depth++
			i++
		case '}', ']':
			if depth == 0 {
				return i, true // the end of the enclosing object
			}
			depth--
			i++
		case ',':
			if depth == 0 {
				return i, true
			}
			i++
		case ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i, true // after a number or literal
			}
			i++
		default:
			i++
		}
		if depth == 0 && i < len(data) && (data[i] == ',' || data[i] == '}') {
			return i, true
		}
	}
	return 0, false
}
