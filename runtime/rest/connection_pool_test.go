package rest

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// countingTransport answers every request with a body and counts the requests it got.
type countingTransport struct{ requests int }

func (c *countingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	c.requests++
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("ok"))}, nil
}

// TestConnectionPoolPrefersTheLessBusyMember: each request goes to the less busy of two members,
// and a request stays in flight until its body is read to the end or closed.
func TestConnectionPoolPrefersTheLessBusyMember(t *testing.T) {
	var members []*countingTransport
	p := newConnectionPool(3, func() http.RoundTripper {
		m := &countingTransport{}
		members = append(members, m)
		return m
	})
	picks := []int{0, 0, 0, 0, 0, 1} // (i, j) draws: members 0/1, 0/1, then 0/2 (j skips over i)
	p.intn = func(n int) int { v := picks[0]; picks = picks[1:]; return v }
	req, _ := http.NewRequest(http.MethodGet, "https://api/x", nil)
	watch, err := p.RoundTrip(req) // member 0, held open like a watch
	if err != nil || members[0].requests != 1 {
		t.Fatalf("first request: %v, member requests %d", err, members[0].requests)
	}
	list, _ := p.RoundTrip(req) // 0 is busy: member 1
	if members[1].requests != 1 {
		t.Fatalf("the busy member was picked: requests %d/%d", members[0].requests, members[1].requests)
	}
	if _, err := io.ReadAll(list.Body); err != nil { // read to the end: no longer in flight
		t.Fatal(err)
	}
	if p.members[1].inFlight.Load() != 0 || p.members[0].inFlight.Load() != 1 {
		t.Fatalf("in flight %d/%d, want 1/0", p.members[0].inFlight.Load(), p.members[1].inFlight.Load())
	}
	if _, err := p.RoundTrip(req); err != nil || members[2].requests != 1 { // 0 (busy) against 2
		t.Fatalf("third request went to members %d/%d/%d", members[0].requests, members[1].requests, members[2].requests)
	}
	_ = watch.Body.Close()
	_ = watch.Body.Close() // a second close changes nothing
	if p.members[0].inFlight.Load() != 0 {
		t.Fatalf("closed watch still in flight: %d", p.members[0].inFlight.Load())
	}
}

func TestMinConnectionPoolSize(t *testing.T) {
	ca := newTestCA(t)
	cfg := &Config{Host: "https://a.example.com", TLSClientConfig: TLSClientConfig{CAData: ca.certPEM}, MinConnectionPoolSize: 4}
	pool := func(c *Config) *connectionPool {
		t.Helper()
		rt, err := TransportFor(c)
		if err != nil {
			t.Fatal(err)
		}
		for {
			switch v := rt.(type) {
			case *connectionPool:
				return v
			case interface{ WrappedRoundTripper() http.RoundTripper }:
				rt = v.WrappedRoundTripper()
			default:
				return nil
			}
		}
	}
	p := pool(cfg)
	if p == nil || len(p.members) != 4 || p.members[0].rt == p.members[1].rt {
		t.Fatalf("MinConnectionPoolSize 4 gave %#v, want a pool of 4 transports", p)
	}
	if pool(CopyConfig(cfg)) != p {
		t.Fatal("configs asking for the same pool must share it")
	}
	for _, size := range []int{0, 1} {
		single := CopyConfig(cfg)
		single.MinConnectionPoolSize = size
		if pool(single) != nil {
			t.Fatalf("MinConnectionPoolSize %d gave a pool", size)
		}
	}
	huge := CopyConfig(cfg)
	huge.MinConnectionPoolSize = 1000
	if n := len(pool(huge).members); n != maxConnectionPoolSize {
		t.Fatalf("MinConnectionPoolSize 1000 gave %d transports, want %d", n, maxConnectionPoolSize)
	}
	if tc, err := cfg.TransportConfig(); err != nil || tc.MinConnectionPoolSize != 4 {
		t.Fatalf("TransportConfig: %v, MinConnectionPoolSize %d", err, tc.MinConnectionPoolSize)
	}
}
