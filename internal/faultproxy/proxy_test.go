package faultproxy

import (
	"bufio"
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
)

// echoServer answers every line it reads on a connection with the same line.
func echoServer(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln
}

// roundTrip sends a line through the proxy and reads the echo back.
func roundTrip(p *Proxy) (string, error) {
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		return "", err
	}
	defer c.Close()
	if _, err := c.Write([]byte("ping\n")); err != nil {
		return "", err
	}
	return bufio.NewReader(c).ReadString('\n')
}

func TestProxyForwardsRefusesAndClosesWhenTheTargetIsDown(t *testing.T) {
	target := echoServer(t)
	p, err := Start(target.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if got, err := roundTrip(p); err != nil || got != "ping\n" {
		t.Fatalf("through the proxy: %q, %v; want the echo", got, err)
	}

	// An open connection is cut by Refuse, and new ones are refused.
	open, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	if _, err := open.Write([]byte("x\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(open).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	p.Refuse()
	if _, err := open.Read(make([]byte, 1)); err == nil {
		t.Fatal("a connection stayed open across Refuse")
	}
	if _, err := net.Dial("tcp", p.Addr()); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial while refusing: %v, want connection refused", err)
	}
	if err := p.Accept(); err != nil {
		t.Fatal(err)
	}
	if got, err := roundTrip(p); err != nil || got != "ping\n" {
		t.Fatalf("after Accept: %q, %v; want the echo", got, err)
	}

	// With the target gone, connections are accepted and closed at once.
	target.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatalf("dial with the target down: %v, want the proxy to accept", err)
	}
	defer c.Close()
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Fatalf("read with the target down = %d, %v; want the connection closed", n, err)
	}
}

func TestAcceptAfterCloseFails(t *testing.T) {
	p, err := Start("127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if err := p.Accept(); err == nil {
		t.Fatal("Accept after Close succeeded")
	}
}
