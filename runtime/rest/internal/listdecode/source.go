package listdecode

import (
	"bytes"
	"io"
)

const (
	// readSize is how much the source asks its reader for at a time.
	readSize = 32 << 10
	// maxEmptyReads bounds how often a reader may return no bytes and no error in a row.
	maxEmptyReads = 100
)

// source is a window on a JSON body: buf holds the bytes read and not yet discarded, pos is the
// next byte to scan. Bytes before the mark are discarded when room is needed, unless keepAll is
// set; positions given to and returned by the methods are absolute offsets in the body.
type source struct {
	r   io.Reader
	buf []byte
	// base is the absolute offset of buf[0].
	base int
	pos  int
	mark int
	// keepAll keeps every byte read, so the body can be replayed from its start.
	keepAll bool
	// err is the first error from r; io.EOF at the end of the body.
	err error
}

// offset returns the absolute offset of the next byte to scan.
func (s *source) offset() int { return s.base + s.pos }

// from returns the bytes from absolute offset off (at or after the mark) to the scan position.
func (s *source) from(off int) []byte { return s.buf[off-s.base : s.pos] }

// readErr returns the error the reader failed with, or nil at a clean end of the body.
func (s *source) readErr() error {
	if s.err == io.EOF {
		return nil
	}
	return s.err
}

// more reads more of the body into buf, making room by discarding the bytes before the mark or
// by growing buf. It reports whether any byte was added.
func (s *source) more() bool {
	if s.err != nil {
		return false
	}
	if len(s.buf) == cap(s.buf) {
		drop := 0
		if !s.keepAll {
			drop = min(max(s.mark-s.base, 0), s.pos)
		}
		if drop > 0 && drop >= len(s.buf)/2 {
			n := copy(s.buf, s.buf[drop:])
			s.buf = s.buf[:n]
			s.base += drop
			s.pos -= drop
		} else {
			grown := make([]byte, len(s.buf), max(2*cap(s.buf), len(s.buf)+readSize))
			copy(grown, s.buf)
			s.buf = grown
		}
	}
	for range maxEmptyReads {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err != nil {
			s.err = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	s.err = io.ErrNoProgress
	return false
}

// rest returns the bytes from absolute offset off to the end of the body.
func (s *source) rest(off int) ([]byte, error) {
	var b bytes.Buffer
	b.Write(s.buf[off-s.base:])
	if s.err == nil {
		if _, err := b.ReadFrom(s.r); err != nil {
			return nil, err
		}
	} else if s.err != io.EOF {
		return nil, s.err
	}
	return b.Bytes(), nil
}

// skipSpace moves past JSON whitespace and returns the next byte, or false at the end of the body.
func (s *source) skipSpace() (byte, bool) {
	for {
		for ; s.pos < len(s.buf); s.pos++ {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
			default:
				return c, true
			}
		}
		if !s.more() {
			return 0, false
		}
	}
}

// skipValue moves past the JSON value that starts at the scan position. It finds where the
// value ends without validating it (the decode that follows does), and reports false when the
// body ends first.
func (s *source) skipValue() bool {
	if s.pos >= len(s.buf) && !s.more() {
		return false
	}
	switch s.buf[s.pos] {
	case '"':
		s.pos++
		return s.skipString()
	case '{', '[':
		return s.skipContainer()
	default:
		return s.skipLiteral()
	}
}

// skipString moves past the rest of a string whose opening quote was consumed.
func (s *source) skipString() bool {
	for {
		i := bytes.IndexByte(s.buf[s.pos:], '"')
		if i < 0 {
			// Keep a trailing backslash run in view: it may escape a quote in the next read.
			s.pos = len(s.buf)
			for s.pos > 0 && s.buf[s.pos-1] == '\\' {
				s.pos--
			}
			if !s.more() {
				return false
			}
			continue
		}
		end := s.pos + i
		escapes := 0
		for j := end - 1; j >= s.pos && s.buf[j] == '\\'; j-- {
			escapes++
		}
		s.pos = end + 1
		if escapes%2 == 0 {
			return true
		}
	}
}

// skipContainer moves past an object or array, counting brackets outside strings.
func (s *source) skipContainer() bool {
	depth := 0
	for {
		for s.pos < len(s.buf) {
			c := s.buf[s.pos]
			s.pos++
			switch c {
			case '"':
				if !s.skipString() {
					return false
				}
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return true
				}
			}
		}
		if !s.more() {
			return false
		}
	}
}

// skipLiteral moves past a number, true, false or null: up to the next delimiter.
func (s *source) skipLiteral() bool {
	for {
		for ; s.pos < len(s.buf); s.pos++ {
			switch s.buf[s.pos] {
			case ' ', '\t', '\n', '\r', ',', ':', '[', ']', '{', '}', '"':
				return true
			}
		}
		if !s.more() {
			return s.readErr() == nil
		}
	}
}
