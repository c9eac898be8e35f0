package transport

import (
	"net/http"
	"testing"
)

// recorder is a round tripper that remembers the names of the wrappers around it, innermost first.
type recorder struct{ names []string }

func (r *recorder) RoundTrip(*http.Request) (*http.Response, error) { return nil, nil }

// named returns a wrapper that adds name to the recorder it wraps.
func named(name string) WrapperFunc {
	return func(rt http.RoundTripper) http.RoundTripper {
		var names []string
		if r, ok := rt.(*recorder); ok {
			names = r.names
		}
		return &recorder{names: append(append([]string(nil), names...), name)}
	}
}

func TestWrappersApplyInOrderAndSkipNil(t *testing.T) {
	rt := Wrappers(nil, named("a"), nil, named("b"))(&recorder{})
	if got := rt.(*recorder).names; len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("wrappers applied as %q, want a inside b", got)
	}
	if Wrappers() != nil || Wrappers(nil, nil) != nil {
		t.Fatal("Wrappers of no wrapper is not nil")
	}
	var c Config
	c.Wrap(nil)
	c.Wrap(named("a"))
	c.Wrap(named("b"))
	if got := c.WrapTransport(&recorder{}).(*recorder).names; len(got) != 2 || got[1] != "b" {
		t.Fatalf("Config.Wrap applied %q, want the last wrapper outermost", got)
	}
}
