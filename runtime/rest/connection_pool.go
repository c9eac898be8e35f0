package rest

import (
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
)

// maxConnectionPoolSize bounds Config.MinConnectionPoolSize, as kubeconfig validation does.
const maxConnectionPoolSize = 100

// connectionPool spreads requests over independent transports, each with connections of its own:
// one HTTP/2 connection multiplexes every request of a transport, so a client with many watches or
// large lists queues behind one TCP stream and one server-side connection. Each request goes to the
// less busy of two members picked at random; a request stays in flight until its response body is
// read to the end or closed, so watches count for as long as they run.
type connectionPool struct {
	members []*poolMember
	intn    func(n int) int // random numbers in [0, n)
}

type poolMember struct {
	rt       http.RoundTripper
	inFlight atomic.Int64
}

// newConnectionPool returns a pool of size members made by newMember.
func newConnectionPool(size int, newMember func() http.RoundTripper) *connectionPool {
	p := &connectionPool{members: make([]*poolMember, size), intn: rand.IntN}
	for i := range p.members {
		p.members[i] = &poolMember{rt: newMember()}
	}
	return p
}

// pick returns the less busy of two distinct members chosen at random.
func (p *connectionPool) pick() *poolMember {
	n := len(p.members)
	i, j := p.intn(n), p.intn(n-1)
	if j >= i {
		j++
	}
	a, b := p.members[i], p.members[j]
	if b.inFlight.Load() < a.inFlight.Load() {
		return b
	}
	return a
}

// RoundTrip sends req through the picked member.
func (p *connectionPool) RoundTrip(req *http.Request) (*http.Response, error) {
	m := p.pick()
	m.inFlight.Add(1)
	resp, err := m.rt.RoundTrip(req)
	if err != nil || resp == nil || resp.Body == nil {
		m.inFlight.Add(-1)
		return resp, err
	}
	resp.Body = trackBody(resp.Body, func() { m.inFlight.Add(-1) })
	return resp, nil
}

// CloseIdleConnections closes the idle connections of every member.
func (p *connectionPool) CloseIdleConnections() {
	for _, m := range p.members {
		if c, ok := m.rt.(interface{ CloseIdleConnections() }); ok {
			c.CloseIdleConnections()
		}
	}
}

// WrappedRoundTripper returns the first member; all are configured alike.
func (p *connectionPool) WrappedRoundTripper() http.RoundTripper { return p.members[0].rt }

// trackedBody calls done once, when the body is read to its end or closed.
type trackedBody struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.done)
	}
	return n, err
}

func (b *trackedBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.done)
	return err
}

// trackedReadWriteBody keeps the body of a 101 Switching Protocols response writable.
type trackedReadWriteBody struct {
	*trackedBody
	io.Writer
}

func trackBody(body io.ReadCloser, done func()) io.ReadCloser {
	b := &trackedBody{ReadCloser: body, done: done}
	if w, ok := body.(io.Writer); ok {
		return &trackedReadWriteBody{trackedBody: b, Writer: w}
	}
	return b
}
