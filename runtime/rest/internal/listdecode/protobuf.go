package listdecode

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/runtime"
)

// protoMagic starts every Kubernetes protobuf body.
var protoMagic = []byte{'k', '8', 's', 0}

// Protobuf wire types.
const (
	wireVarint     = 0
	wireFixed64    = 1
	wireBytes      = 2
	wireStartGroup = 3
	wireEndGroup   = 4
	wireFixed32    = 5
)

// rawField is the field number of Raw in runtime.Unknown, the envelope of a protobuf body.
const rawField = 2

const (
	// chunkSize is the size of the buffers small items are read into.
	chunkSize = 64 << 10
	// ownBufferSize is the item size from which an item gets a buffer of its own.
	ownBufferSize = chunkSize / 4
	// rawStartSize is how many bytes of Raw are kept for filler: more than one filler field takes.
	rawStartSize = 16
)

// errField reports a field the streaming decode cannot read: it is then decoded the buffered way.
var errField = errors.New("unreadable protobuf field")

// teeReader keeps a copy of what it reads while keep is set.
type teeReader struct {
	r      io.Reader
	keep   bool
	copied []byte
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if t.keep {
		t.copied = append(t.copied, p[:n]...)
	}
	return n, err
}

// protoList decodes one protobuf list body.
type protoList struct {
	tee      *teeReader
	br       *bufio.Reader
	t        *Target
	decoder  runtime.Decoder
	buffered func([]byte) error
	// head is the envelope's fields before Raw, as in the body.
	head []byte
	// rawLen is the length of Raw.
	rawLen uint64
	// rawStart is the first bytes of Raw, for filler.
	rawStart []byte
	// chunk is the free part of the current buffer for small items. Items are never read into
	// memory an earlier item was decoded from, in case an Unmarshal keeps its input.
	chunk []byte
	// readErr is the first error reading the body, other than its end.
	readErr error
}

// decodeProtobuf decodes the protobuf list body in r into t; see the package documentation.
func decodeProtobuf(r io.Reader, t *Target, decoder runtime.Decoder, buffered func([]byte) error) error {
	tee := &teeReader{r: r, keep: true}
	d := &protoList{tee: tee, br: bufio.NewReaderSize(tee, readSize), t: t, decoder: decoder, buffered: buffered}
	return d.decode()
}

func (d *protoList) decode() error {
	magic := make([]byte, len(protoMagic))
	if _, err := io.ReadFull(d.br, magic); err != nil || !bytes.Equal(magic, protoMagic) {
		return d.replayAll()
	}
	for {
		field, err := d.readField(nil, ^uint64(0), false)
		num, wire := fieldKey(field)
		if err == nil && num == rawField && wire == wireBytes {
			d.rawLen = fieldLen(field)
			break
		}
		if err == nil && wire == wireBytes {
			field, err = d.readN(field, fieldLen(field))
		}
		if err != nil {
			return d.replayAll()
		}
		d.head = append(d.head, field...)
	}
	if !d.decide() {
		return d.replayAll()
	}
	d.tee.keep, d.tee.copied = false, nil
	// The decoder reset the list: its items are those of Raw, collected in chunks.
	items := newChunks(d.t.items.Type())
	for remaining := d.rawLen; remaining > 0; {
		field, err := d.readField(nil, remaining, false)
		if err != nil {
			return d.fail(remaining, field)
		}
		num, wire := fieldKey(field)
		switch {
		case num == d.t.protoField && wire == wireBytes:
			var item []byte
			item, err = d.readItem(fieldLen(field))
			if err == nil {
				err = items.next().(protoUnmarshaler).Unmarshal(item)
			}
			if err == nil {
				d.keepStart(field, item)
				remaining -= uint64(len(field) + len(item))
				continue
			}
			field = append(field, item...)
		case wire == wireBytes:
			if field, err = d.readN(field, fieldLen(field)); err == nil {
				err = d.t.obj.(protoUnmarshaler).Unmarshal(field)
			}
		default:
			err = d.t.obj.(protoUnmarshaler).Unmarshal(field)
		}
		if err != nil {
			return d.fail(remaining, field)
		}
		d.keepStart(field, nil)
		remaining -= uint64(len(field))
	}
	if items.len > 0 {
		d.t.items.Set(items.slice())
	}
	return d.finish()
}

// decide decodes the envelope without its Raw with the response decoder and reports whether it
// makes a list of the target's type, so that the items can be streamed into it.
func (d *protoList) decide() bool {
	out, _, err := d.decoder.Decode(append(bytes.Clone(protoMagic), d.head...), nil, d.t.obj)
	return err == nil && out == d.t.obj
}

// keepStart adds the bytes of a decoded field to rawStart until it has rawStartSize bytes.
func (d *protoList) keepStart(field, value []byte) {
	for _, b := range [][]byte{field, value} {
		if room := rawStartSize - len(d.rawStart); room > 0 {
			d.rawStart = append(d.rawStart, b[:min(room, len(b))]...)
		}
	}
}

// finish reads the envelope's fields after Raw, which the buffered decode checks before it decodes
// anything, and the end of the body. A later Raw field replaces the one streamed: the envelope is
// then decoded the buffered way without the first.
func (d *protoList) finish() error {
	tail, err := io.ReadAll(d.br)
	if err != nil {
		return err
	}
	var head, all runtime.Unknown
	if all.Unmarshal(append(bytes.Clone(d.head), tail...)) != nil {
		return d.fail(0, tail)
	}
	if all.Raw != nil {
		return d.buffered(append(append(bytes.Clone(protoMagic), d.head...), tail...))
	}
	if err := head.Unmarshal(d.head); err != nil || all.TypeMeta != head.TypeMeta {
		return fmt.Errorf("the protobuf list envelope changes its type after the list to %+v", all.TypeMeta)
	}
	return nil
}

// readField reads one field's key and value, appending the bytes to field; of a length-delimited
// field only the length is read unless full is set. limit is how many bytes the field may take.
func (d *protoList) readField(field []byte, limit uint64, full bool) ([]byte, error) {
	field, key, err := d.readVarint(field, limit)
	if err != nil {
		return field, err
	}
	return d.readValue(field, key, limit, full)
}

// readValue reads the value of a field whose key was read, as readField does. A group is read up to
// its end key the way the generated code skips one: nested groups count, field numbers are not
// matched.
func (d *protoList) readValue(field []byte, key, limit uint64, full bool) ([]byte, error) {
	left := func() uint64 { return limit - uint64(len(field)) }
	var size uint64
	var err error
	switch key & 7 {
	case wireVarint:
		field, _, err = d.readVarint(field, left())
		return field, err
	case wireFixed64:
		size = 8
	case wireFixed32:
		size = 4
	case wireBytes:
		if field, size, err = d.readVarint(field, left()); err != nil || !full && size <= left() {
			return field, err
		}
	case wireStartGroup:
		for depth := 1; depth > 0; {
			if field, key, err = d.readVarint(field, left()); err != nil {
				return field, err
			}
			switch key & 7 {
			case wireStartGroup:
				depth++
			case wireEndGroup:
				depth--
			default:
				if field, err = d.readValue(field, key, limit, true); err != nil {
					return field, err
				}
			}
		}
		return field, nil
	default:
		return field, errField
	}
	if size > left() {
		return field, errField
	}
	return d.readN(field, size)
}

// readVarint reads a varint of at most limit bytes, appending its bytes to b.
func (d *protoList) readVarint(b []byte, limit uint64) ([]byte, uint64, error) {
	start := len(b)
	for i := uint64(0); i < min(limit, binary.MaxVarintLen64); i++ {
		c, err := d.br.ReadByte()
		if err != nil {
			return b, 0, d.noteRead(err)
		}
		b = append(b, c)
		if c < 0x80 {
			v, n := binary.Uvarint(b[start:])
			if n <= 0 {
				return b, 0, errField
			}
			return b, v, nil
		}
	}
	return b, 0, errField
}

// readN appends the next n bytes of the body to b, growing b only as the bytes arrive.
func (d *protoList) readN(b []byte, n uint64) ([]byte, error) {
	for n > 0 {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		room := min(uint64(cap(b)-len(b)), n)
		got, err := io.ReadFull(d.br, b[len(b):len(b)+int(room)])
		b = b[:len(b)+got]
		n -= uint64(got)
		if err != nil {
			return b, d.noteRead(err)
		}
	}
	return b, nil
}

// readItem reads an item of n bytes: into the current chunk when it is small, else into a buffer
// of its own.
func (d *protoList) readItem(n uint64) ([]byte, error) {
	if n >= ownBufferSize {
		return d.readN(nil, n)
	}
	if uint64(len(d.chunk)) < n {
		d.chunk = make([]byte, chunkSize)
	}
	item, err := d.readN(d.chunk[:0:n], n)
	d.chunk = d.chunk[n:]
	return item, err
}

// noteRead records a read error other than the end of the body and returns err.
func (d *protoList) noteRead(err error) error {
	if err != io.EOF && err != io.ErrUnexpectedEOF && d.readErr == nil {
		d.readErr = err
	}
	return err
}

// fieldKey returns the field number and wire type of the field whose bytes start field.
func fieldKey(field []byte) (num uint64, wire uint64) {
	key, _ := binary.Uvarint(field)
	return key >> 3, key & 7
}

// fieldLen returns the length of the length-delimited field whose key and length are field.
func fieldLen(field []byte) uint64 {
	_, n := binary.Uvarint(field)
	size, _ := binary.Uvarint(field[n:])
	return size
}

// replayAll decodes the whole body the buffered way: the bytes read so far, all kept, and the rest.
func (d *protoList) replayAll() error {
	if d.readErr != nil {
		return d.readErr
	}
	rest, err := io.ReadAll(d.tee.r)
	if err != nil {
		return err
	}
	return d.buffered(append(d.tee.copied, rest...))
}

// fail handles a field the streaming decode cannot go on with: field holds what was read of it and
// remaining is how much of Raw was left before it. The rest of the body is decoded the buffered
// way in an envelope with the same fields before Raw and a Raw of the same length that has filler
// in place of what was decoded, then field, so that field is at the same offset (the generated
// code's length checks depend on it). As what was decoded before field decoded without error,
// this gives the buffered decode's error, or, when a later Raw field replaces this one, its result.
func (d *protoList) fail(remaining uint64, field []byte) error {
	if d.readErr != nil {
		return d.readErr
	}
	rest, err := io.ReadAll(d.br)
	if err != nil {
		return err
	}
	body := append(bytes.Clone(protoMagic), d.head...)
	body = binary.AppendUvarint(body, rawField<<3|wireBytes)
	body = binary.AppendUvarint(body, d.rawLen)
	body = d.appendFiller(body, d.rawLen-remaining)
	return d.buffered(append(append(body, field...), rest...))
}

// fillerKey is the key of a field no API type has (the highest field number), length-delimited.
var fillerKey = binary.AppendUvarint(nil, (1<<29-1)<<3|wireBytes)

// appendFiller appends n bytes that the generated code skips without effect: the first bytes of
// Raw, which decoded, when they are all kept, else one or two fields no type has.
func (d *protoList) appendFiller(b []byte, n uint64) []byte {
	if n <= uint64(len(d.rawStart)) {
		return append(b, d.rawStart[:n]...)
	}
	fits := func(n uint64) (uint64, bool) {
		for k := uint64(1); k <= binary.MaxVarintLen64 && len(fillerKey)+int(k) <= int(n); k++ {
			size := n - uint64(len(fillerKey)) - k
			if uint64(len(binary.AppendUvarint(nil, size))) == k {
				return size, true
			}
		}
		return 0, false
	}
	size, ok := fits(n)
	if !ok {
		// A one-byte empty field first shifts the length to one that has a fitting encoding.
		b = append(append(b, fillerKey...), 0)
		size, _ = fits(n - uint64(len(fillerKey)) - 1)
	}
	b = binary.AppendUvarint(append(b, fillerKey...), size)
	return append(b, make([]byte, size)...)
}
