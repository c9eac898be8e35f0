package listdecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"
)

// Synthetic text put before the rest of a JSON body when it is decoded the buffered way to
// report an error; each stands for where the streaming decode was in the body.
const (
	// atMember: a member of the list object starts next.
	atMember = `"items":[],`
	// afterMember: a member just ended; a comma or the closing brace is due.
	afterMember = `"items":[]`
	// afterObject: the list object ended; only whitespace may follow.
	afterObject = `"items":[]}`
	// atItem: the first item starts next.
	atItem = `"items":[`
	// atNextItem: an item other than the first starts next.
	atNextItem = `"items":[null,`
	// afterItem: an item just ended; a comma or the closing bracket is due.
	afterItem = `"items":[null`
)

// jsonMember is a member of the list object other than a streamed items array.
type jsonMember struct {
	name string
	raw  []byte // `"name":value` as in the body
}

// jsonList decodes one JSON list body.
type jsonList struct {
	src      source
	t        *Target
	decoder  runtime.Decoder
	buffered func([]byte) error
	members  []jsonMember
	// streaming is set once the members before the items decoded as the target's type.
	streaming bool
}

// decodeJSON decodes the JSON list body in r into t; see the package documentation.
func decodeJSON(r io.Reader, t *Target, decoder runtime.Decoder, buffered func([]byte) error) error {
	d := &jsonList{src: source{r: r, keepAll: true}, t: t, decoder: decoder, buffered: buffered}
	return d.decode()
}

func (d *jsonList) decode() error {
	s := &d.src
	if c, ok := s.skipSpace(); !ok || c != '{' {
		return d.replayAll()
	}
	s.pos++
	for first := true; ; first = false {
		c, ok := s.skipSpace()
		if first && ok && c == '}' {
			s.pos++
			break
		}
		if done, err := d.member(); done {
			return err
		}
		c, ok = s.skipSpace()
		if ok && c == ',' {
			s.pos++
			continue
		}
		if ok && c == '}' {
			s.pos++
			break
		}
		return d.fail(afterMember, s.offset())
	}
	s.mark = s.offset()
	if _, ok := s.skipSpace(); ok {
		return d.fail(afterObject, s.offset())
	}
	if err := s.readErr(); err != nil {
		return err
	}
	if !d.streaming {
		return d.replayAll()
	}
	return nil
}

// member decodes one member of the list object: the items array item by item, anything else
// whole. done reports that the decode of the body ended, with err.
func (d *jsonList) member() (done bool, err error) {
	s := &d.src
	start := s.offset()
	s.mark = start
	if c, ok := s.skipSpace(); !ok || c != '"' || !s.skipValue() {
		return true, d.fail(atMember, start)
	}
	name, err := memberName(s.from(start))
	if err != nil {
		return true, d.fail(atMember, start)
	}
	if c, ok := s.skipSpace(); !ok || c != ':' {
		return true, d.fail(atMember, start)
	}
	s.pos++
	c, ok := s.skipSpace()
	if !ok {
		return true, d.fail(atMember, start)
	}
	if name == "items" && c == '[' {
		if !d.streaming {
			if !d.decide() {
				return true, d.replayAll()
			}
			d.streaming = true
			s.keepAll = false
		}
		return d.items()
	}
	if !s.skipValue() {
		return true, d.fail(atMember, start)
	}
	m := jsonMember{name: name, raw: bytes.Clone(s.from(start))}
	if d.streaming {
		if done, err := d.trailing(m, start); done {
			return true, err
		}
	}
	d.members = append(d.members, m)
	return false, nil
}

// memberName decodes the quoted member name at the start of raw.
func memberName(raw []byte) (string, error) {
	if bytes.IndexByte(raw, '\\') < 0 && len(raw) >= 2 {
		return string(raw[1 : len(raw)-1]), nil
	}
	var name string
	err := json.Unmarshal(raw, &name)
	return name, err
}

// decide decodes the members before the items with the response decoder and reports whether they
// make a list of the target's type, so that the items can be streamed into it.
func (d *jsonList) decide() bool {
	out, _, err := d.decoder.Decode(d.object(d.members), nil, d.t.obj)
	return err == nil && out == d.t.obj
}

// items decodes the items array at the scan position into the target's Items slice. done
// reports that the decode of the body ended, with err.
func (d *jsonList) items() (done bool, err error) {
	s := &d.src
	s.pos++
	c, ok := s.skipSpace()
	if ok && c == ']' {
		s.pos++
		d.t.finishArray(0)
		return false, nil
	}
	// Into a slice with no room, as the list's usually is, items are collected in chunks; into one
	// with room, they are decoded in place as encoding/json does.
	var fresh *chunks
	if d.t.items.Cap() == 0 {
		fresh = newChunks(d.t.items.Type())
	}
	for n := 0; ; n++ {
		start := s.offset()
		s.mark = start
		where := atItem
		if n > 0 {
			where = atNextItem
		}
		if !ok || !s.skipValue() {
			return true, d.fail(where, start)
		}
		var item any
		if fresh != nil {
			item = fresh.next()
		} else {
			item = d.t.element(n)
		}
		if kjson.UnmarshalCaseSensitivePreserveInts(s.from(start), item) != nil {
			return true, d.fail(where, start)
		}
		end := s.offset()
		c, ok = s.skipSpace()
		switch {
		case ok && c == ',':
			s.pos++
			_, ok = s.skipSpace()
		case ok && c == ']':
			s.pos++
			if fresh != nil {
				d.t.items.Set(fresh.slice())
			} else {
				d.t.finishArray(n + 1)
			}
			return false, nil
		default:
			return true, d.fail(afterItem, end)
		}
	}
}

// trailing decodes a member that follows the streamed items. The buffered decode takes the list's
// type from the whole body, matching member names without regard to case, so a later kind or
// apiVersion must still make a list of the target's type. done reports that the decode of the
// body ended, with err.
func (d *jsonList) trailing(m jsonMember, start int) (done bool, err error) {
	if strings.EqualFold(m.name, "kind") || strings.EqualFold(m.name, "apiVersion") {
		fresh := reflect.New(reflect.TypeOf(d.t.obj).Elem()).Interface().(runtime.Object)
		out, _, err := d.decoder.Decode(d.object(append(d.members[:len(d.members):len(d.members)], m)), nil, fresh)
		if err != nil || out != fresh {
			if err := d.replayFrom(atMember, start); err != nil {
				return true, err
			}
			return true, fmt.Errorf("the list body changes its type after its items with %s", m.raw)
		}
	}
	if kjson.UnmarshalCaseSensitivePreserveInts(d.object([]jsonMember{m}), d.t.obj) != nil {
		return true, d.fail(atMember, start)
	}
	d.t.obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	return false, nil
}

// object returns a JSON object of members.
func (d *jsonList) object(members []jsonMember) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m.raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// replayAll decodes the whole body the buffered way: the bytes read so far, all kept, and the rest.
func (d *jsonList) replayAll() error {
	body, err := d.src.rest(d.src.base)
	if err != nil {
		return err
	}
	return d.buffered(body)
}

// fail handles a body the streaming decode cannot go on with at absolute offset off, which is at
// the place where describes. Before the items, the whole body is decoded the buffered way; after,
// the rest of it is, see replayFrom.
func (d *jsonList) fail(where string, off int) error {
	if err := d.src.readErr(); err != nil {
		return err
	}
	if !d.streaming {
		return d.replayAll()
	}
	if err := d.replayFrom(where, off); err != nil {
		return err
	}
	return fmt.Errorf("the list body could not be decoded past byte %d", off)
}

// replayFrom decodes the rest of the body from absolute offset off the buffered way, behind the
// members decoded so far and the synthetic text where that stands for the place of off, so that an
// error is the one the buffered decode of the whole body reports.
func (d *jsonList) replayFrom(where string, off int) error {
	rest, err := d.src.rest(off)
	if err != nil {
		return err
	}
	var body bytes.Buffer
	body.WriteByte('{')
	for _, m := range d.members {
		body.Write(m.raw)
		body.WriteByte(',')
	}
	body.WriteString(where)
	body.Write(rest)
	return d.buffered(body.Bytes())
}
