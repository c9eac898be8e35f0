// Package faultproxy is a loopback TCP proxy that tests put between clients and an API server to
// produce the faults a real server cannot produce on demand: while the server is down it accepts
// connections and closes them at once, as a load balancer in front of a restarting server does, and
// it can refuse connections altogether for a while.
package faultproxy

import (
	"errors"
	"io"
	"net"
	"sync"
)

// Proxy forwards connections made to Addr to its target.
type Proxy struct {
	target string
	addr   string

	mu      sync.Mutex
	ln      net.Listener // nil while refusing
	conns   map[net.Conn]struct{}
	wg      sync.WaitGroup
	stopped bool
}

// Start listens on a free loopback port and forwards every connection to target until Close.
func Start(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{target: target, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	p.serve(ln)
	return p, nil
}

// Addr is the host:port clients connect to.
func (p *Proxy) Addr() string { return p.addr }

func (p *Proxy) serve(ln net.Listener) {
	p.ln = ln
	p.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Go(func() { p.forward(c) })
		}
	})
}

// forward copies bytes both ways between c and a new connection to the target, or closes c when the
// target cannot be reached.
func (p *Proxy) forward(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = c.Close()
		return
	}
	if !p.track(c, up) {
		return
	}
	defer p.untrack(c, up)
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		_ = dst.Close()
		_ = src.Close()
		done <- struct{}{}
	}
	go pipe(up, c)
	go pipe(c, up)
	<-done
	<-done
}

func (p *Proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		for _, c := range conns {
			_ = c.Close()
		}
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *Proxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		delete(p.conns, c)
	}
}

// Refuse closes the listener, so new connections are refused, and cuts the open ones.
func (p *Proxy) Refuse() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		_ = c.Close()
	}
}

// Accept listens again on the same address after Refuse.
func (p *Proxy) Accept() error {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		_ = ln.Close()
		return errors.New("faultproxy: Accept after Close")
	}
	p.serve(ln)
	return nil
}

// Close stops listening, cuts every connection and waits for the proxy's goroutines to end.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
	p.Refuse()
	p.wg.Wait()
}
