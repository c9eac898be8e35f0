package webhook

import (
	"bytes"

	jsoniter "github.com/json-iterator/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// conversionRequest is what Conversion reads of a ConversionReview: its type,
// whether it has a request, and the request's fields, each object a slice of
// the review's body, with the decoder that reads those objects.
type conversionRequest struct {
	meta              metav1.TypeMeta
	hasRequest        bool
	uid               types.UID
	desiredAPIVersion string
	objects           [][]byte
	decoder           jsoniter.API
}

// conversionReviewAPIVersion is ConversionReviewGVK's apiVersion.
var conversionReviewAPIVersion = ConversionReviewGVK.GroupVersion().String()

// maxScanDepth bounds the nesting scanConversionReview follows; deeper
// reviews go to the general decoder.
const maxScanDepth = 512

// scanConversionReview reads a ConversionReview as the API server writes it,
// in one pass over body that validates it as strictly as encoding/json.Valid
// and copies nothing but the short strings. It reports false, with r in any
// state, for a body it does not take: invalid JSON, a member other than
// apiVersion, kind, request, uid, desiredAPIVersion and objects, a member
// given twice, a string with an escape, a value of another type (null
// included), an object that is not a JSON object. Those are left to the
// general decoder, so that the answer never depends on which one read the
// review.
func scanConversionReview(body []byte, r *conversionRequest) bool {
	r.objects = r.objects[:0]
	var seen [2]uint8
	end, ok := scanMembers(body, skipSpace(body, 0), 0, func(key []byte, i int) (int, bool) {
		var (
			s  string
			ok bool
		)
		switch string(key) {
		case "apiVersion":
			s, i, ok = scanName(body, i, &seen[0], 1, conversionReviewAPIVersion)
			r.meta.APIVersion = s
		case "kind":
			s, i, ok = scanName(body, i, &seen[0], 2, ConversionReviewGVK.Kind)
			r.meta.Kind = s
		case "request":
			if !mark(&seen[0], 4) {
				return 0, false
			}
			r.hasRequest = true
			return scanMembers(body, i, 1, func(key []byte, i int) (int, bool) {
				var (
					s  string
					ok bool
				)
				switch string(key) {
				case "uid":
					s, i, ok = scanName(body, i, &seen[1], 1, "")
					r.uid = types.UID(s)
				case "desiredAPIVersion":
					s, i, ok = scanName(body, i, &seen[1], 2, "")
					r.desiredAPIVersion = s
				case "objects":
					if !mark(&seen[1], 4) {
						return 0, false
					}
					return scanObjects(body, i, r)
				default:
					return 0, false
				}
				return i, ok
			})
		default:
			return 0, false
		}
		return i, ok
	})
	return ok && skipSpace(body, end) == len(body)
}

// mark sets bit in seen, reporting false if it was set: a member given twice.
func mark(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// scanName reads the string member bit of seen at body[i]; a value equal to
// common is returned without a copy.
func scanName(body []byte, i int, seen *uint8, bit uint8, common string) (string, int, bool) {
	if !mark(seen, bit) {
		return "", 0, false
	}
	s, end, ok := scanPlainString(body, i)
	if !ok {
		return "", 0, false
	}
	if string(s) == common {
		return common, end, true
	}
	return string(s), end, true
}

// scanObjects reads the array of objects at body[i] into r.objects.
func scanObjects(body []byte, i int, r *conversionRequest) (int, bool) {
	if i >= len(body) || body[i] != '[' {
		return 0, false
	}
	i = skipSpace(body, i+1)
	if i < len(body) && body[i] == ']' {
		return i + 1, true
	}
	for {
		if i >= len(body) || body[i] != '{' {
			return 0, false
		}
		end, ok := validValue(body, i, 3)
		if !ok {
			return 0, false
		}
		r.objects = append(r.objects, body[i:end])
		i = skipSpace(body, end)
		if i >= len(body) {
			return 0, false
		}
		switch body[i] {
		case ']':
			return i + 1, true
		case ',':
			i = skipSpace(body, i+1)
		default:
			return 0, false
		}
	}
}

// scanMembers reads the object at body[i], calling member with each key and
// the index of its value, which member returns the end of. It returns the
// index after the object.
func scanMembers(body []byte, i, depth int, member func(key []byte, i int) (int, bool)) (int, bool) {
	if i >= len(body) || body[i] != '{' || depth >= maxScanDepth {
		return 0, false
	}
	i = skipSpace(body, i+1)
	if i < len(body) && body[i] == '}' {
		return i + 1, true
	}
	for {
		key, end, ok := scanPlainString(body, i)
		if !ok {
			return 0, false
		}
		i = skipSpace(body, end)
		if i >= len(body) || body[i] != ':' {
			return 0, false
		}
		if i, ok = member(key, skipSpace(body, i+1)); !ok {
			return 0, false
		}
		i = skipSpace(body, i)
		if i >= len(body) {
			return 0, false
		}
		switch body[i] {
		case '}':
			return i + 1, true
		case ',':
			i = skipSpace(body, i+1)
		default:
			return 0, false
		}
	}
}

// scanPlainString reads a string of printable ASCII without escapes at
// body[i], returning its contents and the index after it.
func scanPlainString(body []byte, i int) ([]byte, int, bool) {
	if i >= len(body) || body[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(body); j++ {
		switch c := body[j]; {
		case c == '"':
			return body[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20 || c > 0x7e:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// validValue checks the JSON value at body[i] and returns the index after it.
func validValue(body []byte, i, depth int) (int, bool) {
	if i >= len(body) {
		return 0, false
	}
	switch c := body[i]; {
	case c == '{', c == '[':
		if depth >= maxScanDepth {
			return 0, false
		}
		closing := c + 2 // '}' or ']'
		i = skipSpace(body, i+1)
		if i < len(body) && body[i] == closing {
			return i + 1, true
		}
		for {
			if c == '{' { // a member: a plain key, then a colon
				_, end, ok := scanPlainString(body, i)
				if !ok {
					return 0, false
				}
				i = skipSpace(body, end)
				if i >= len(body) || body[i] != ':' {
					return 0, false
				}
				i = skipSpace(body, i+1)
			}
			end, ok := validValue(body, i, depth+1)
			if !ok {
				return 0, false
			}
			i = skipSpace(body, end)
			switch {
			case i >= len(body):
				return 0, false
			case body[i] == closing:
				return i + 1, true
			case body[i] == ',':
				i = skipSpace(body, i+1)
			default:
				return 0, false
			}
		}
	case c == '"':
		return validString(body, i)
	case c == '-' || c >= '0' && c <= '9':
		return validNumber(body, i)
	case c == 't':
		return literal(body, i, "true")
	case c == 'f':
		return literal(body, i, "false")
	case c == 'n':
		return literal(body, i, "null")
	}
	return 0, false
}

func literal(body []byte, i int, lit string) (int, bool) {
	if !bytes.HasPrefix(body[i:], []byte(lit)) {
		return 0, false
	}
	return i + len(lit), true
}

// validString checks the string at body[i]: no control characters, only
// JSON's escapes.
func validString(body []byte, i int) (int, bool) {
	for j := i + 1; j < len(body); j++ {
		switch c := body[j]; {
		case c == '"':
			return j + 1, true
		case c < 0x20:
			return 0, false
		case c == '\\':
			j++
			if j >= len(body) {
				return 0, false
			}
			switch body[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(body) {
					return 0, false
				}
				for _, h := range body[j+1 : j+5] {
					if !isHex(h) {
						return 0, false
					}
				}
				j += 4
			default:
				return 0, false
			}
		}
	}
	return 0, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// validNumber checks the number at body[i]: an optional minus, an integer
// without leading zeros, an optional fraction and exponent.
func validNumber(body []byte, i int) (int, bool) {
	if body[i] == '-' {
		i++
	}
	switch {
	case i < len(body) && body[i] == '0':
		i++
	case i < len(body) && body[i] >= '1' && body[i] <= '9':
		i = digits(body, i)
	default:
		return 0, false
	}
	if i < len(body) && body[i] == '.' {
		j := digits(body, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(body) && (body[i] == 'e' || body[i] == 'E') {
		i++
		if i < len(body) && (body[i] == '+' || body[i] == '-') {
			i++
		}
		j := digits(body, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

func digits(body []byte, i int) int {
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
	}
	return i
}
