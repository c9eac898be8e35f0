package sharding

import (
	"fmt"
	"net/http"
)

type ownershipKey struct{}

// Value lets requests made with a reconcile's context carry the membership they run under.
func (c *ownedContext) Value(key any) any {
	if key == (ownershipKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// WrapTransport guards a transport, in the shape of rest.Config.WrapTransport (wrap it before any
// other wrapper: rest.Config.Wrap puts each new wrapper outside the earlier ones, so the first one runs
// right before the request leaves): a request made with the context of a reconcile the
// Reconciler guard started fails with ErrNotMember instead of being sent once this replica's
// membership lapsed, for instance when the process was paused past its Lease in the middle of a
// reconcile. Other requests pass. The API server offers no fencing, so a pause between this check and
// the request's bytes leaving the process is the remaining window.
func WrapTransport(rt http.RoundTripper) http.RoundTripper {
	return guardedTransport{next: rt}
}

type guardedTransport struct{ next http.RoundTripper }

func (g guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if owned, ok := req.Context().Value(ownershipKey{}).(*ownedContext); ok && !owned.m.valid(owned.epoch) {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, fmt.Errorf("%w: refusing %s %s from a reconcile whose membership lapsed", ErrNotMember, req.Method, req.URL.Path)
	}
	return g.next.RoundTrip(req)
}
