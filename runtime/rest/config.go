package rest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/rest/transport"
)

// Client-side rate limiting defaults applied when Config.QPS or Config.Burst is zero.
const (
	DefaultQPS   float32 = 5.0
	DefaultBurst int     = 10
)

// Config holds everything needed to reach and authenticate against a Kubernetes API server.
// Field names and meaning mirror client-go's rest.Config so configuration code ports unchanged.
type Config struct {
	// Host is a host string, host:port, or URL to the API server's base.
	Host string
	// APIPath is the sub-path under Host where the API lives, e.g. "/api" or "/apis".
	APIPath string

	// ContentConfig describes how requests and responses are encoded.
	ContentConfig

	// Username and Password are used for HTTP basic authentication.
	Username string
	Password string

	// BearerToken is sent as an "Authorization: Bearer" header. BearerTokenFile wins when both are set.
	BearerToken string
	// BearerTokenFile names a file holding the bearer token; it is re-read when it changes.
	BearerTokenFile string

	// Impersonate configures user impersonation headers.
	Impersonate ImpersonationConfig

	// ExecProvider runs an external credential plugin to obtain credentials.
	ExecProvider *ExecConfig

	// AuthProvider names a legacy in-tree auth-provider plugin (gcp, azure, oidc). kgen has none:
	// building a transport for a Config that sets it fails with an error that says so; use an
	// exec credential plugin (ExecProvider) instead.
	AuthProvider *AuthProviderConfig
	// AuthConfigPersister would store an auth-provider plugin's refreshed configuration; kept so
	// that configuration code written for client-go compiles.
	AuthConfigPersister AuthProviderConfigPersister

	// TLSClientConfig holds TLS settings.
	TLSClientConfig

	// UserAgent is sent with every request; DefaultKubernetesUserAgent is used when empty.
	UserAgent string

	// DisableCompression stops the client from asking for gzip-compressed responses.
	DisableCompression bool

	// MinConnectionPoolSize, if greater than 1, spreads requests over at least this many
	// independent transports (at most 100), each with connections of its own, each request going to
	// the less busy of two picked at random; a transport may still open more connections, as when
	// one reaches the server's limit of concurrent HTTP/2 streams. 0 or 1 keeps one shared
	// transport. Ignored when Transport is set.
	MinConnectionPoolSize int

	// Transport, when set, is used as-is for requests; TLS and auth settings must then be empty.
	Transport http.RoundTripper
	// WrapTransport wraps the transport built from this config, e.g. to add instrumentation.
	WrapTransport func(rt http.RoundTripper) http.RoundTripper

	// QPS is the maximum sustained request rate; zero means DefaultQPS and a negative value disables limiting.
	QPS float32
	// Burst is the maximum burst above QPS; zero means DefaultBurst.
	Burst int
	// RateLimiter, when set, replaces the limiter built from QPS and Burst.
	RateLimiter RateLimiter

	// WarningHandler receives warnings sent by the server; nil means the package default handler.
	WarningHandler WarningHandler
	// WarningHandlerWithContext receives warnings with the request's context; it takes precedence
	// over WarningHandler.
	WarningHandlerWithContext WarningHandlerWithContext

	// Timeout bounds each request; zero means no timeout beyond the request context.
	Timeout time.Duration

	// Dial specifies the dialer for unencrypted TCP connections.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)

	// Proxy chooses the proxy for each request; nil means http.ProxyFromEnvironment.
	Proxy func(*http.Request) (*url.URL, error)
}

// AuthProviderConfig names an auth-provider plugin and holds its configuration, as a kubeconfig's
// auth-provider stanza does.
type AuthProviderConfig struct {
	// Name is the plugin's name, such as "oidc".
	Name string
	// Config is the plugin's configuration.
	Config map[string]string
}

// DeepCopy returns a copy of c; nil stays nil.
func (c *AuthProviderConfig) DeepCopy() *AuthProviderConfig {
	if c == nil {
		return nil
	}
	out := &AuthProviderConfig{Name: c.Name}
	if c.Config != nil {
		out.Config = make(map[string]string, len(c.Config))
		for k, v := range c.Config {
			out.Config[k] = v
		}
	}
	return out
}

// AuthProviderConfigPersister stores an auth-provider plugin's updated configuration.
type AuthProviderConfigPersister interface {
	// Persist stores config.
	Persist(config map[string]string) error
}

// ImpersonationConfig makes requests act as another user.
type ImpersonationConfig struct {
	// UserName is the user to impersonate.
	UserName string
	// UID is the unique ID of the impersonated user.
	UID string
	// Groups are the groups to impersonate.
	Groups []string
	// Extra holds extra attributes of the impersonated user.
	Extra map[string][]string
}

// TLSClientConfig holds the TLS settings of a Config; file fields are read when the transport is built.
type TLSClientConfig struct {
	// Insecure skips server certificate verification; it must not be combined with CA settings.
	Insecure bool
	// ServerName overrides the name used to verify the server certificate (and SNI).
	ServerName string

	// CertFile, KeyFile and CAFile name PEM files for the client certificate, key and trusted CAs.
	CertFile string
	KeyFile  string
	CAFile   string

	// CertData, KeyData and CAData hold PEM bytes and take precedence over the matching files.
	CertData []byte
	KeyData  []byte
	CAData   []byte

	// NextProtos is the ALPN protocol list; empty means the HTTP library's default.
	NextProtos []string
}

// ContentConfig describes the wire encoding of requests and responses.
type ContentConfig struct {
	// AcceptContentTypes is the Accept header value; ContentType is used when empty.
	AcceptContentTypes string
	// ContentType is the encoding of request bodies; "application/json" when empty.
	ContentType string
	// GroupVersion is the API group and version requests are made against.
	GroupVersion *schema.GroupVersion
	// NegotiatedSerializer encodes request bodies and decodes responses.
	NegotiatedSerializer runtime.NegotiatedSerializer
}

// ExecInteractiveMode states how an exec credential plugin uses standard input.
type ExecInteractiveMode string

// Interactive modes for exec credential plugins.
const (
	NeverExecInteractiveMode       ExecInteractiveMode = "Never"
	IfAvailableExecInteractiveMode ExecInteractiveMode = "IfAvailable"
	AlwaysExecInteractiveMode      ExecInteractiveMode = "Always"
)

// ExecConfig configures an external command that prints client credentials (an ExecCredential).
type ExecConfig struct {
	// Command is the executable to run.
	Command string
	// Args are passed to Command.
	Args []string
	// Env is added to the environment of the process.
	Env []ExecEnvVar
	// APIVersion is the client.authentication.k8s.io version of the ExecCredential exchanged.
	APIVersion string
	// InstallHint is shown when Command cannot be found.
	InstallHint string
	// ProvideClusterInfo passes the cluster's details to the plugin in KUBERNETES_EXEC_INFO.
	ProvideClusterInfo bool
	// InteractiveMode states whether the plugin needs standard input.
	InteractiveMode ExecInteractiveMode
	// StdinUnavailable reports that standard input cannot be handed to the plugin.
	StdinUnavailable bool
	// StdinUnavailableMessage explains why standard input is unavailable.
	StdinUnavailableMessage string
}

// ExecEnvVar is one environment variable passed to an exec plugin.
type ExecEnvVar struct {
	Name  string
	Value string
}

const redacted = "--- REDACTED ---"

// String renders the Config with secrets redacted, so a Config can be logged safely.
func (c *Config) String() string {
	if c == nil {
		return "<nil>"
	}
	cc := CopyConfig(c)
	if cc.Password != "" {
		cc.Password = redacted
	}
	if cc.BearerToken != "" {
		cc.BearerToken = redacted
	}
	if len(cc.KeyData) > 0 {
		cc.KeyData = []byte(redacted)
	}
	if len(cc.CertData) > 0 {
		cc.CertData = []byte(redacted)
	}
	if cc.ExecProvider != nil {
		for i := range cc.ExecProvider.Env {
			cc.ExecProvider.Env[i].Value = redacted
		}
	}
	type plain Config
	return fmt.Sprintf("%#v", (*plain)(cc))
}

// GoString is String, so %#v also redacts secrets.
func (c *Config) GoString() string { return c.String() }

// CopyConfig returns a deep copy of the Config's data (functions and interfaces are shared).
func CopyConfig(c *Config) *Config {
	out := *c
	out.Impersonate.Groups = cloneSlice(c.Impersonate.Groups)
	if c.Impersonate.Extra != nil {
		out.Impersonate.Extra = make(map[string][]string, len(c.Impersonate.Extra))
		for k, v := range c.Impersonate.Extra {
			out.Impersonate.Extra[k] = cloneSlice(v)
		}
	}
	if c.GroupVersion != nil {
		gv := *c.GroupVersion
		out.GroupVersion = &gv
	}
	out.CertData = cloneSlice(c.CertData)
	out.KeyData = cloneSlice(c.KeyData)
	out.CAData = cloneSlice(c.CAData)
	out.NextProtos = cloneSlice(c.NextProtos)
	if c.ExecProvider != nil {
		e := *c.ExecProvider
		e.Args = cloneSlice(e.Args)
		e.Env = cloneSlice(e.Env)
		out.ExecProvider = &e
	}
	out.AuthProvider = c.AuthProvider.DeepCopy()
	return &out
}

func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// Wrap adds fn to the transport wrappers: fn wraps the round tripper the WrapTransport set so far
// returns. A nil fn changes nothing.
func (c *Config) Wrap(fn func(rt http.RoundTripper) http.RoundTripper) {
	c.WrapTransport = transport.Wrappers(c.WrapTransport, fn)
}
