// Package transport holds the transport-level view of a rest.Config that rest.Config.TransportConfig
// returns: TLS settings, credentials, impersonation, user agent and the wrappers around the base round
// tripper, with client-go's transport.Config field and method names. Build round trippers and HTTP
// clients with rest.TransportFor and rest.HTTPClientFor.
package transport

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/url"
)

// WrapperFunc wraps a round tripper in another.
type WrapperFunc func(rt http.RoundTripper) http.RoundTripper

// Config describes how to reach and authenticate to a server at the transport level.
type Config struct {
	// UserAgent is sent with every request.
	UserAgent string
	// Transport, when set, is the base round tripper; TLS settings must then be empty.
	Transport http.RoundTripper
	// WrapTransport wraps the base round tripper (after Transport or the one built from TLS).
	WrapTransport WrapperFunc
	// DisableCompression stops the client from asking for gzip-compressed responses.
	DisableCompression bool
	// MinConnectionPoolSize, if greater than 1, spreads requests over at least this many independent
	// transports (see rest.Config.MinConnectionPoolSize).
	MinConnectionPoolSize int
	// TLS holds the TLS settings.
	TLS TLSConfig

	// Username and Password are used for HTTP basic authentication.
	Username string
	Password string
	// BearerToken is sent as an "Authorization: Bearer" header; BearerTokenFile wins when both are set.
	BearerToken string
	// BearerTokenFile names a file holding the bearer token, re-read when it changes.
	BearerTokenFile string
	// Impersonate sets the impersonation headers.
	Impersonate ImpersonationConfig

	// DialHolder holds the dialer for unencrypted TCP connections, nil for the default one.
	DialHolder *DialHolder
	// Proxy chooses the proxy for each request; nil means http.ProxyFromEnvironment.
	Proxy func(*http.Request) (*url.URL, error)
}

// DialHolder holds a dial function behind a pointer, so that configs can be compared.
type DialHolder struct {
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// ImpersonationConfig names the user to act as.
type ImpersonationConfig struct {
	// UserName is the user to impersonate.
	UserName string
	// UID is the impersonated user's UID.
	UID string
	// Groups are the impersonated user's groups.
	Groups []string
	// Extra holds the impersonated user's extra attributes.
	Extra map[string][]string
}

// TLSConfig holds the TLS settings of a Config.
type TLSConfig struct {
	// CAFile and CAData hold the PEM certificate authorities that verify the server; data wins.
	CAFile string
	CAData []byte
	// CertFile, KeyFile, CertData and KeyData hold the PEM client certificate and key; data wins.
	CertFile string
	KeyFile  string
	CertData []byte
	KeyData  []byte
	// ServerName overrides the name the server's certificate is checked against.
	ServerName string
	// Insecure skips verifying the server's certificate.
	Insecure bool
	// NextProtos lists the application protocols offered during the handshake.
	NextProtos []string
	// GetCertHolder holds a callback supplying the client certificate (an exec credential plugin's).
	GetCertHolder *GetCertHolder
}

// GetCertHolder holds a client-certificate callback behind a pointer, so that configs can be compared.
type GetCertHolder struct {
	GetCert func() (*tls.Certificate, error)
}

// HasCA reports whether certificate authorities are configured.
func (c *Config) HasCA() bool { return len(c.TLS.CAData) > 0 || c.TLS.CAFile != "" }

// HasBasicAuth reports whether a username is configured for basic authentication.
func (c *Config) HasBasicAuth() bool { return c.Username != "" }

// HasTokenAuth reports whether a bearer token or token file is configured.
func (c *Config) HasTokenAuth() bool { return c.BearerToken != "" || c.BearerTokenFile != "" }

// HasCertAuth reports whether a client certificate and key are configured.
func (c *Config) HasCertAuth() bool {
	return (len(c.TLS.CertData) != 0 || c.TLS.CertFile != "") && (len(c.TLS.KeyData) != 0 || c.TLS.KeyFile != "")
}

// HasCertCallback reports whether a client-certificate callback is configured.
func (c *Config) HasCertCallback() bool {
	return c.TLS.GetCertHolder != nil && c.TLS.GetCertHolder.GetCert != nil
}

// Wrap adds fn around the round tripper WrapTransport returned so far; a nil fn changes nothing.
func (c *Config) Wrap(fn WrapperFunc) { c.WrapTransport = Wrappers(c.WrapTransport, fn) }

// Wrappers returns the wrapper that applies fns in order, each around the result of those before it,
// skipping nil ones; nil when all are nil.
func Wrappers(fns ...WrapperFunc) WrapperFunc {
	var out WrapperFunc
	for _, fn := range fns {
		switch inner := out; {
		case fn == nil:
		case inner == nil:
			out = fn
		default:
			out = func(rt http.RoundTripper) http.RoundTripper { return fn(inner(rt)) }
		}
	}
	return out
}
