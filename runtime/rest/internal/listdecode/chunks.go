package listdecode

import "reflect"

const (
	// firstChunkLen and maxChunkLen bound the number of items in one chunk.
	firstChunkLen = 16
	maxChunkLen   = 512
)

// chunks collects decoded items in chunks that are never moved and builds the Items slice once,
// at its final length, at the end. Growing the slice item by item instead copies and allocates
// several times the final slice for a large list, as each growth by a quarter copies it all.
type chunks struct {
	sliceType reflect.Type
	full      []reflect.Value
	// cur is the chunk being filled; its first n items are decoded.
	cur reflect.Value
	n   int
	len int
}

func newChunks(sliceType reflect.Type) *chunks {
	return &chunks{sliceType: sliceType}
}

// next returns the address of a new zero item.
func (c *chunks) next() any {
	if !c.cur.IsValid() || c.n == c.cur.Len() {
		size := firstChunkLen
		if c.cur.IsValid() {
			c.full = append(c.full, c.cur)
			size = min(2*c.cur.Len(), maxChunkLen)
		}
		c.cur, c.n = reflect.MakeSlice(c.sliceType, size, size), 0
	}
	c.n++
	c.len++
	return c.cur.Index(c.n - 1).Addr().Interface()
}

// slice returns the items in a new slice of their number, which is empty and not nil when there
// are none.
func (c *chunks) slice() reflect.Value {
	out := reflect.MakeSlice(c.sliceType, c.len, c.len)
	at := 0
	for i, chunk := range c.full {
		at += reflect.Copy(out.Slice(at, c.len), chunk)
		c.full[i] = reflect.Value{}
	}
	if c.cur.IsValid() {
		reflect.Copy(out.Slice(at, c.len), c.cur.Slice(0, c.n))
	}
	return out
}
