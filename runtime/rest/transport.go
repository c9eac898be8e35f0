package rest

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"k8s.io/klog/v2"
)

// HTTPClientFor returns an HTTP client with the transport, TLS, authentication and timeout of config.
func HTTPClientFor(config *Config) (*http.Client, error) {
	rt, err := TransportFor(config)
	if err != nil {
		return nil, err
	}
	return &http.Client{Transport: rt, Timeout: config.Timeout}, nil
}

// TransportFor returns the round tripper for config: a base transport (or config.Transport) wrapped
// with user agent, authentication and impersonation.
func TransportFor(config *Config) (http.RoundTripper, error) {
	var (
		rt       http.RoundTripper
		execAuth *execAuthenticator
		err      error
	)
	if config.AuthProvider != nil {
		return nil, fmt.Errorf("auth provider %q is not supported: kgen has no auth-provider plugins; use an exec credential plugin (ExecProvider) instead", config.AuthProvider.Name)
	}
	if config.ExecProvider != nil {
		if config.BearerToken != "" || config.BearerTokenFile != "" || config.Username != "" {
			return nil, fmt.Errorf("exec credential plugin cannot be combined with a bearer token or basic auth")
		}
		if execAuth, err = newExecAuthenticator(config); err != nil {
			return nil, err
		}
	}
	if config.Transport != nil {
		if hasTLS(config) {
			return nil, fmt.Errorf("using a custom transport with TLS certificate options or the insecure flag is not allowed")
		}
		if config.Dial != nil {
			return nil, fmt.Errorf("using a custom transport with a custom dialer is not allowed")
		}
		rt = config.Transport
	} else {
		tlsConfig, err := TLSConfigFor(config)
		if err != nil {
			return nil, err
		}
		if execAuth != nil {
			if tlsConfig == nil {
				tlsConfig = &tls.Config{MinVersion: tls.VersionTLS12}
			}
			execAuth.fallbackCert = staticClientCertificate(tlsConfig)
			tlsConfig.GetClientCertificate = execAuth.getClientCertificate
			rt = newPooledTransport(config, tlsConfig)
		} else {
			rt = sharedBaseTransport(config, tlsConfig)
		}
	}
	if config.WrapTransport != nil {
		rt = config.WrapTransport(rt)
	}
	return wrapAuth(config, rt, execAuth)
}

// staticClientCertificate returns how tlsConfig would pick a client certificate on its own, or nil.
func staticClientCertificate(tlsConfig *tls.Config) func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	switch {
	case tlsConfig.GetClientCertificate != nil:
		return tlsConfig.GetClientCertificate
	case len(tlsConfig.Certificates) > 0:
		cert := tlsConfig.Certificates[0]
		return func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &cert, nil }
	}
	return nil
}

func hasTLS(config *Config) bool {
	c := config.TLSClientConfig
	return c.Insecure || c.CAFile != "" || len(c.CAData) > 0 || c.CertFile != "" || len(c.CertData) > 0 ||
		c.KeyFile != "" || len(c.KeyData) > 0 || c.ServerName != ""
}

// transportKey identifies configurations whose base transports (and so connection pools) can be shared.
type transportKey struct {
	insecure                              bool
	serverName, caFile, certFile, keyFile string
	caData, certData, keyData, nextProtos string
	disableCompression                    bool
	poolSize                              int // 0 without a connection pool
}

// poolSize is the number of transports config asks to spread requests over, 0 for one.
func poolSize(config *Config) int {
	if config.MinConnectionPoolSize <= 1 {
		return 0
	}
	return min(config.MinConnectionPoolSize, maxConnectionPoolSize)
}

// newPooledTransport returns a new base transport, or a pool of them when config asks for one.
func newPooledTransport(config *Config, tlsConfig *tls.Config) http.RoundTripper {
	n := poolSize(config)
	if n == 0 {
		return newBaseTransport(config, tlsConfig)
	}
	return newConnectionPool(n, func() http.RoundTripper { return newBaseTransport(config, tlsConfig) })
}

var (
	transportsMu sync.Mutex
	transports   = map[transportKey]http.RoundTripper{}
)

// sharedBaseTransport returns one base transport per distinct TLS configuration, so clients built from
// the same Config (a clientset, a dynamic client, discovery) share connections. Configs with their own
// dialer or proxy function cannot be compared and get a transport of their own. A config asking for a
// connection pool (MinConnectionPoolSize) shares one with the configs asking for the same size.
func sharedBaseTransport(config *Config, tlsConfig *tls.Config) http.RoundTripper {
	if config.Dial != nil || config.Proxy != nil {
		return newPooledTransport(config, tlsConfig)
	}
	c := config.TLSClientConfig
	key := transportKey{
		insecure: c.Insecure, serverName: c.ServerName, caFile: c.CAFile, certFile: c.CertFile, keyFile: c.KeyFile,
		caData: string(c.CAData), certData: string(c.CertData), keyData: string(c.KeyData),
		nextProtos:         strings.Join(c.NextProtos, ","),
		disableCompression: config.DisableCompression,
		poolSize:           poolSize(config),
	}
	transportsMu.Lock()
	defer transportsMu.Unlock()
	if t, ok := transports[key]; ok {
		return t
	}
	t := newPooledTransport(config, tlsConfig)
	transports[key] = t
	return t
}

func newBaseTransport(config *Config, tlsConfig *tls.Config) *http.Transport {
	dial := config.Dial
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	proxy := config.Proxy
	if proxy == nil {
		proxy = http.ProxyFromEnvironment
	}
	return &http.Transport{
		Proxy:               proxy,
		DialContext:         dial,
		TLSClientConfig:     tlsConfig,
		TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConnsPerHost: 25,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
		DisableCompression:  config.DisableCompression,
		// Ping idle HTTP/2 connections so a watch on a silently dead connection fails instead of hanging.
		HTTP2: &http.HTTP2Config{SendPingTimeout: 30 * time.Second, PingTimeout: 15 * time.Second},
	}
}

// TLSConfigFor returns the TLS configuration of config, or nil when it asks for none.
func TLSConfigFor(config *Config) (*tls.Config, error) {
	c := config.TLSClientConfig
	if !hasTLS(config) && len(c.NextProtos) == 0 {
		return nil, nil
	}
	hasCA := c.CAFile != "" || len(c.CAData) > 0
	if c.Insecure && hasCA {
		return nil, fmt.Errorf("specifying a root certificates file with the insecure flag is not allowed")
	}
	tlsConfig := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: c.Insecure,
		ServerName:         c.ServerName,
		NextProtos:         c.NextProtos,
	}
	if hasCA {
		caData, err := dataFromSliceOrFile(c.CAData, c.CAFile, "CA")
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caData) {
			return nil, fmt.Errorf("unable to load root certificates: no valid PEM certificates in %s", describeSource(c.CAData, c.CAFile))
		}
		tlsConfig.RootCAs = pool
	}
	hasCert := c.CertFile != "" || len(c.CertData) > 0
	hasKey := c.KeyFile != "" || len(c.KeyData) > 0
	switch {
	case hasCert != hasKey:
		return nil, fmt.Errorf("a client certificate and a client key must be given together")
	case hasCert:
		cert, err := loadKeyPair(c)
		if err != nil {
			return nil, err
		}
		if len(c.CertData) > 0 && len(c.KeyData) > 0 {
			tlsConfig.Certificates = []tls.Certificate{cert}
		} else {
			tlsConfig.GetClientCertificate = (&fileCertificate{tls: c, cert: cert}).get
		}
	}
	return tlsConfig, nil
}

func loadKeyPair(c TLSClientConfig) (tls.Certificate, error) {
	certPEM, err := dataFromSliceOrFile(c.CertData, c.CertFile, "client certificate")
	if err != nil {
		return tls.Certificate{}, err
	}
	keyPEM, err := dataFromSliceOrFile(c.KeyData, c.KeyFile, "client key")
	if err != nil {
		return tls.Certificate{}, err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("invalid client certificate/key pair (certificate from %s, key from %s): %w",
			describeSource(c.CertData, c.CertFile), describeSource(c.KeyData, c.KeyFile), err)
	}
	return cert, nil
}

// fileCertificate reloads a client certificate from disk when its files change, so rotated
// certificates are picked up without restarting.
type fileCertificate struct {
	tls     TLSClientConfig
	mu      sync.Mutex
	cert    tls.Certificate
	modTime time.Time
}

func (f *fileCertificate) get(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	latest := latestModTime(f.tls.CertFile, f.tls.KeyFile)
	if latest.After(f.modTime) {
		if cert, err := loadKeyPair(f.tls); err == nil {
			f.cert, f.modTime = cert, latest
		} else {
			klog.V(2).Info("Keeping the previous client certificate", "err", err)
		}
	}
	return &f.cert, nil
}

func latestModTime(files ...string) time.Time {
	var latest time.Time
	for _, f := range files {
		if f == "" {
			continue
		}
		if st, err := os.Stat(f); err == nil && st.ModTime().After(latest) {
			latest = st.ModTime()
		}
	}
	return latest
}

func dataFromSliceOrFile(data []byte, file, what string) ([]byte, error) {
	if len(data) > 0 {
		return data, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("unable to read %s file: %w", what, err)
	}
	return b, nil
}

func describeSource(data []byte, file string) string {
	if len(data) > 0 {
		return "inline data"
	}
	return fmt.Sprintf("file %q", file)
}

// LoadTLSFiles replaces the file fields of config's TLS settings with their contents.
func LoadTLSFiles(config *Config) error {
	c := &config.TLSClientConfig
	for _, f := range []struct {
		data *[]byte
		file *string
		what string
	}{{&c.CAData, &c.CAFile, "CA"}, {&c.CertData, &c.CertFile, "client certificate"}, {&c.KeyData, &c.KeyFile, "client key"}} {
		if len(*f.data) > 0 || *f.file == "" {
			continue
		}
		b, err := dataFromSliceOrFile(nil, *f.file, f.what)
		if err != nil {
			return err
		}
		*f.data = b
	}
	return nil
}

// wrapAuth adds impersonation, credentials and the user agent to rt.
func wrapAuth(config *Config, rt http.RoundTripper, execAuth *execAuthenticator) (http.RoundTripper, error) {
	if imp := config.Impersonate; imp.UserName != "" || imp.UID != "" || len(imp.Groups) > 0 || len(imp.Extra) > 0 {
		if imp.UserName == "" {
			return nil, fmt.Errorf("impersonating groups, a UID or extra attributes requires a user name")
		}
		rt = &impersonatingRoundTripper{imp: imp, wrapped: wrapped{rt}}
	}
	switch {
	case execAuth != nil:
		execAuth.next = rt
		rt = execAuth
	case config.BearerToken != "" || config.BearerTokenFile != "":
		if config.Username != "" || config.Password != "" {
			return nil, fmt.Errorf("username/password or bearer token may be set, but not both")
		}
		rt = &bearerRoundTripper{source: newTokenSource(config.BearerToken, config.BearerTokenFile), wrapped: wrapped{rt}}
	case config.Username != "" || config.Password != "":
		rt = &basicAuthRoundTripper{username: config.Username, password: config.Password, wrapped: wrapped{rt}}
	}
	ua := config.UserAgent
	if ua == "" {
		ua = DefaultKubernetesUserAgent()
	}
	return &userAgentRoundTripper{agent: ua, wrapped: wrapped{rt}}, nil
}

// wrapped is embedded by every kgen round tripper: it exposes the next one and forwards
// CloseIdleConnections, so http.Client.CloseIdleConnections reaches the base transport.
type wrapped struct{ next http.RoundTripper }

// WrappedRoundTripper returns the next round tripper in the chain.
func (w wrapped) WrappedRoundTripper() http.RoundTripper { return w.next }

// CloseIdleConnections closes idle connections of the base transport.
func (w wrapped) CloseIdleConnections() {
	if c, ok := w.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

type userAgentRoundTripper struct {
	wrapped
	agent string
}

func (rt *userAgentRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("User-Agent") != "" {
		return rt.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Set("User-Agent", rt.agent)
	return rt.next.RoundTrip(req)
}

type basicAuthRoundTripper struct {
	wrapped
	username, password string
}

func (rt *basicAuthRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" {
		return rt.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.SetBasicAuth(rt.username, rt.password)
	return rt.next.RoundTrip(req)
}

type bearerRoundTripper struct {
	wrapped
	source *tokenSource
}

func (rt *bearerRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" {
		return rt.next.RoundTrip(req)
	}
	token := rt.source.Token()
	if token == "" {
		return rt.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+token)
	return rt.next.RoundTrip(req)
}

// tokenSource returns the bearer token, re-reading the token file whenever its size or modification
// time changes (projected service-account tokens are rotated in place). When the file cannot be read
// the last good token is kept.
type tokenSource struct {
	static string
	file   string

	mu      sync.Mutex
	token   string
	modTime time.Time
	size    int64
}

func newTokenSource(static, file string) *tokenSource {
	return &tokenSource{static: static, file: file, token: static}
}

// Token returns the current token.
func (s *tokenSource) Token() string {
	if s.file == "" {
		return s.static
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := os.Stat(s.file)
	if err != nil {
		klog.V(2).Info("Unable to stat the bearer token file, keeping the previous token", "file", s.file, "err", err)
		return s.token
	}
	if st.ModTime().Equal(s.modTime) && st.Size() == s.size {
		return s.token
	}
	b, err := os.ReadFile(s.file)
	if err != nil {
		klog.V(2).Info("Unable to read the bearer token file, keeping the previous token", "file", s.file, "err", err)
		return s.token
	}
	if tok := strings.TrimSpace(string(b)); tok != "" {
		s.token = tok
	}
	s.modTime, s.size = st.ModTime(), st.Size()
	return s.token
}

type impersonatingRoundTripper struct {
	wrapped
	imp ImpersonationConfig
}

// Impersonation header names.
const (
	ImpersonateUserHeader            = "Impersonate-User"
	ImpersonateUIDHeader             = "Impersonate-Uid"
	ImpersonateGroupHeader           = "Impersonate-Group"
	ImpersonateUserExtraHeaderPrefix = "Impersonate-Extra-"
)

func (rt *impersonatingRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get(ImpersonateUserHeader) != "" {
		return rt.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Set(ImpersonateUserHeader, rt.imp.UserName)
	if rt.imp.UID != "" {
		req.Header.Set(ImpersonateUIDHeader, rt.imp.UID)
	}
	for _, g := range rt.imp.Groups {
		req.Header.Add(ImpersonateGroupHeader, g)
	}
	for k, vs := range rt.imp.Extra {
		for _, v := range vs {
			req.Header.Add(ImpersonateUserExtraHeaderPrefix+url.PathEscape(k), v)
		}
	}
	return rt.next.RoundTrip(req)
}
