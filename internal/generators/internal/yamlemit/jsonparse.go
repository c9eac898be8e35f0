package yamlemit

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Map is a mapping whose keys go-yaml sorts (a Go map; a JSON object, its members in the order of the
// text until Emit sorts them in place).
type Map []Member

// Struct is a mapping written in the order of its members, as go-yaml writes a struct's fields.
type Struct []Member

// Member is one key and value of a Map or Struct.
type Member struct {
	Key   string
	Value any
}

// ParseJSON reads JSON text as json.Marshal writes it into Map, []any, string, json.Number, bool and
// nil values, faster than encoding/json builds maps. It reports false for anything it does not
// expect (text json.Marshal does not write: a surrogate escape, invalid UTF-8, trailing data), which the
// caller then reads with encoding/json.
func ParseJSON(b []byte) (any, bool) {
	p := jsonParser{b: b}
	v, ok := p.value()
	p.space()
	return v, ok && p.i == len(b)
}

type jsonParser struct {
	b []byte
	i int
}

func (p *jsonParser) space() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\n' || p.b[p.i] == '\t' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *jsonParser) literal(s string) bool {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// after reads what follows an object's member or an array's element: a comma, more to come, or the
// closing bracket. Anything else is not JSON.
func (p *jsonParser) after(closing byte) (more, ok bool) {
	p.space()
	if p.i >= len(p.b) {
		return false, false
	}
	p.i++
	switch p.b[p.i-1] {
	case ',':
		return true, true
	case closing:
		return false, true
	}
	return false, false
}

func (p *jsonParser) value() (any, bool) {
	p.space()
	if p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		obj := Map{}
		p.space()
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			return obj, true
		}
		for {
			p.space()
			key, ok := p.string()
			if !ok {
				return nil, false
			}
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, false
			}
			p.i++
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			obj = append(obj, Member{key, v})
			more, ok := p.after('}')
			if !ok {
				return nil, false
			}
			if !more {
				return obj, true
			}
		}
	case c == '[':
		p.i++
		list := []any{}
		p.space()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return list, true
		}
		for {
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			list = append(list, v)
			more, ok := p.after(']')
			if !ok {
				return nil, false
			}
			if !more {
				return list, true
			}
		}
	case c == '"':
		return p.string()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		start := p.i
		for p.i < len(p.b) && (p.b[p.i] == '-' || p.b[p.i] == '+' || p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E' || p.b[p.i] >= '0' && p.b[p.i] <= '9') {
			p.i++
		}
		n := json.Number(p.b[start:p.i])
		if _, err := strconv.ParseFloat(string(n), 64); err != nil {
			return nil, false
		}
		return n, true
	}
	return nil, false
}

// string reads a JSON string.
func (p *jsonParser) string() (string, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", false
	}
	p.i++
	start := p.i
	for p.i < len(p.b) && p.b[p.i] != '"' && p.b[p.i] != '\\' && p.b[p.i] >= 0x20 {
		p.i++
	}
	if p.i < len(p.b) && p.b[p.i] == '"' {
		s := p.b[start:p.i]
		p.i++
		return string(s), utf8.Valid(s)
	}
	buf := append([]byte(nil), p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(buf), utf8.Valid(buf)
		case c < 0x20:
			return "", false
		case c != '\\':
			buf = append(buf, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			return "", false
		}
		esc := p.b[p.i+1]
		p.i += 2
		switch esc {
		case '"', '\\', '/':
			buf = append(buf, esc)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			if p.i+4 > len(p.b) {
				return "", false
			}
			r, err := strconv.ParseUint(string(p.b[p.i:p.i+4]), 16, 32)
			if err != nil || r >= 0xd800 && r < 0xe000 {
				return "", false // a surrogate: json.Marshal writes such characters as UTF-8
			}
			p.i += 4
			buf = utf8.AppendRune(buf, rune(r))
		default:
			return "", false
		}
	}
	return "", false
}
