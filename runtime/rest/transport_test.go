package rest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testCA is a throwaway certificate authority generated for one test.
type testCA struct {
	cert    *x509.Certificate
	key     *ecdsa.PrivateKey
	certPEM []byte
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "kgen-test-ca"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key, certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue returns PEM certificate and key signed by the CA.
func (ca *testCA) issue(t *testing.T, cn string, dnsNames []string, ips []net.IP, usage x509.ExtKeyUsage) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
		DNSNames:     dnsNames,
		IPAddresses:  ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})
}

// tlsServer starts a TLS server with a certificate for 127.0.0.1 and "kgen.test"; it reports the client
// certificate's common name in the X-Client header.
func tlsServer(t *testing.T, ca *testCA, requireClientCert bool) *httptest.Server {
	certPEM, keyPEM := ca.issue(t, "server", []string{"kgen.test"}, []net.IP{net.ParseIP("127.0.0.1")}, x509.ExtKeyUsageServerAuth)
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.TLS.PeerCertificates) > 0 {
			w.Header().Set("X-Client", r.TLS.PeerCertificates[0].Subject.CommonName)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
	}))
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, ClientCAs: pool}
	if requireClientCert {
		srv.TLS.ClientAuth = tls.RequireAndVerifyClientCert
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// fetch sends GET / through the transport built for cfg and returns the response headers.
func fetch(cfg *Config) (http.Header, int, error) {
	client, err := HTTPClientFor(cfg)
	if err != nil {
		return nil, 0, err
	}
	resp, err := client.Get(strings.TrimSuffix(cfg.Host, "/") + "/")
	if err != nil {
		return nil, 0, err
	}
	drainAndClose(resp)
	return resp.Header, resp.StatusCode, nil
}

func TestTLSWithGeneratedCA(t *testing.T) {
	ca := newTestCA(t)
	srv := tlsServer(t, ca, false)
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(caFile, ca.certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	other := newTestCA(t)
	cases := []struct {
		name    string
		tls     TLSClientConfig
		wantErr string
	}{
		{"CA data", TLSClientConfig{CAData: ca.certPEM}, ""},
		{"CA file", TLSClientConfig{CAFile: caFile}, ""},
		{"insecure", TLSClientConfig{Insecure: true}, ""},
		{"server name", TLSClientConfig{CAData: ca.certPEM, ServerName: "kgen.test"}, ""},
		{"wrong server name", TLSClientConfig{CAData: ca.certPEM, ServerName: "other.test"}, "certificate"},
		{"wrong CA", TLSClientConfig{CAData: other.certPEM}, "certificate"},
		{"no CA", TLSClientConfig{}, "certificate"},
		{"insecure with CA", TLSClientConfig{Insecure: true, CAData: ca.certPEM}, "insecure"},
		{"bad CA PEM", TLSClientConfig{CAData: []byte("nope")}, "no valid PEM"},
		{"missing CA file", TLSClientConfig{CAFile: filepath.Join(dir, "missing")}, "unable to read CA file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := fetch(&Config{Host: srv.URL, TLSClientConfig: tc.tls})
			if tc.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("got %v, want error containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestClientCertificates(t *testing.T) {
	ca := newTestCA(t)
	srv := tlsServer(t, ca, true)
	certPEM, keyPEM := ca.issue(t, "alice", nil, nil, x509.ExtKeyUsageClientAuth)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "c.crt"), filepath.Join(dir, "c.key")
	_ = os.WriteFile(certFile, certPEM, 0o600)
	_ = os.WriteFile(keyFile, keyPEM, 0o600)

	h, _, err := fetch(&Config{Host: srv.URL, TLSClientConfig: TLSClientConfig{CAData: ca.certPEM, CertData: certPEM, KeyData: keyPEM}})
	if err != nil || h.Get("X-Client") != "alice" {
		t.Fatalf("cert data: %v %v", err, h)
	}
	cfg := &Config{Host: srv.URL, TLSClientConfig: TLSClientConfig{CAData: ca.certPEM, CertFile: certFile, KeyFile: keyFile}}
	client, err := HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	get := func() string {
		resp, err := client.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		drainAndClose(resp)
		return resp.Header.Get("X-Client")
	}
	if cn := get(); cn != "alice" {
		t.Fatalf("cert files: %q", cn)
	}
	// Rotate the files; new connections present the new certificate.
	certPEM2, keyPEM2 := ca.issue(t, "bob", nil, nil, x509.ExtKeyUsageClientAuth)
	later := time.Now().Add(2 * time.Second)
	_ = os.WriteFile(certFile, certPEM2, 0o600)
	_ = os.WriteFile(keyFile, keyPEM2, 0o600)
	_ = os.Chtimes(certFile, later, later)
	client.CloseIdleConnections()
	if cn := get(); cn != "bob" {
		t.Fatalf("after rotation: %q", cn)
	}

	if _, _, err := fetch(&Config{Host: srv.URL, TLSClientConfig: TLSClientConfig{CAData: ca.certPEM, CertData: certPEM}}); err == nil || !strings.Contains(err.Error(), "together") {
		t.Fatalf("cert without key: %v", err)
	}
	if _, _, err := fetch(&Config{Host: srv.URL, TLSClientConfig: TLSClientConfig{CAData: ca.certPEM, CertData: certPEM, KeyData: keyPEM2}}); err == nil || strings.Contains(err.Error(), "PRIVATE") {
		t.Fatalf("mismatched pair: %v", err)
	}
}

// headerEcho returns a server that records the headers of each request.
func headerEcho(t *testing.T, status func(r *http.Request) int) (*httptest.Server, func() http.Header) {
	var mu sync.Mutex
	var last http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		last = r.Header.Clone()
		mu.Unlock()
		code := http.StatusOK
		if status != nil {
			code = status(r)
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(srv.Close)
	return srv, func() http.Header {
		mu.Lock()
		defer mu.Unlock()
		return last
	}
}

func TestAuthHeaders(t *testing.T) {
	srv, last := headerEcho(t, nil)
	cases := []struct {
		name  string
		cfg   Config
		check func(h http.Header) bool
	}{
		{"bearer", Config{BearerToken: "tok"}, func(h http.Header) bool { return h.Get("Authorization") == "Bearer tok" }},
		{"basic", Config{Username: "u", Password: "p"}, func(h http.Header) bool { return h.Get("Authorization") == "Basic dTpw" }},
		{"user agent", Config{UserAgent: "my-agent/1"}, func(h http.Header) bool { return h.Get("User-Agent") == "my-agent/1" }},
		{"default user agent", Config{}, func(h http.Header) bool { return strings.HasSuffix(h.Get("User-Agent"), ") kgen") }},
		{"impersonation", Config{Impersonate: ImpersonationConfig{UserName: "jane", UID: "42", Groups: []string{"g1", "g2"}, Extra: map[string][]string{"scopes/x": {"a", "b"}}}},
			func(h http.Header) bool {
				return h.Get("Impersonate-User") == "jane" && h.Get("Impersonate-Uid") == "42" &&
					strings.Join(h.Values("Impersonate-Group"), ",") == "g1,g2" &&
					strings.Join(h.Values("Impersonate-Extra-Scopes%2Fx"), ",") == "a,b"
			}},
		{"wrap transport", Config{WrapTransport: func(rt http.RoundTripper) http.RoundTripper {
			return roundTripFunc(func(r *http.Request) (*http.Response, error) {
				r = r.Clone(r.Context())
				r.Header.Set("X-Wrapped", "yes")
				return rt.RoundTrip(r)
			})
		}}, func(h http.Header) bool { return h.Get("X-Wrapped") == "yes" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Host = srv.URL
			if _, _, err := fetch(&cfg); err != nil {
				t.Fatal(err)
			}
			if h := last(); !tc.check(h) {
				t.Fatalf("headers %v", h)
			}
		})
	}
	for name, cfg := range map[string]Config{
		"token and basic":          {BearerToken: "t", Username: "u"},
		"groups without user":      {Impersonate: ImpersonationConfig{Groups: []string{"g"}}},
		"transport with TLS":       {Transport: http.DefaultTransport, TLSClientConfig: TLSClientConfig{Insecure: true}},
		"exec with token":          {BearerToken: "t", ExecProvider: &ExecConfig{Command: "x", APIVersion: ExecCredentialV1beta1}},
		"exec unsupported version": {ExecProvider: &ExecConfig{Command: "x", APIVersion: "client.authentication.k8s.io/v1alpha1"}},
		"exec v1 without mode":     {ExecProvider: &ExecConfig{Command: "x", APIVersion: ExecCredentialV1}},
	} {
		t.Run("invalid "+name, func(t *testing.T) {
			cfg.Host = srv.URL
			if _, err := HTTPClientFor(&cfg); err == nil {
				t.Fatal("want error")
			}
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestProxyAndDial(t *testing.T) {
	var proxied atomic.Value
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Store(r.URL.String())
	}))
	defer proxy.Close()
	proxyURL, _ := url.Parse(proxy.URL)
	if _, _, err := fetch(&Config{Host: "http://cluster.invalid", Proxy: http.ProxyURL(proxyURL)}); err != nil {
		t.Fatal(err)
	}
	if got, _ := proxied.Load().(string); got != "http://cluster.invalid/" {
		t.Fatalf("proxy saw %q", got)
	}

	srv, _ := headerEcho(t, nil)
	var dials atomic.Int32
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	if _, _, err := fetch(&Config{Host: srv.URL, Dial: dial}); err != nil || dials.Load() != 1 {
		t.Fatalf("dial: %v, %d dials", err, dials.Load())
	}
	if _, err := HTTPClientFor(&Config{Host: srv.URL, Dial: dial, Transport: http.DefaultTransport}); err == nil {
		t.Fatal("a custom transport with a custom dialer must be rejected")
	}
}

func TestBearerTokenFileRotation(t *testing.T) {
	srv, last := headerEcho(t, nil)
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("first\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := &Config{Host: srv.URL, BearerToken: "static", BearerTokenFile: file}
	client, err := HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	get := func() string {
		resp, err := client.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		drainAndClose(resp)
		return last().Get("Authorization")
	}
	if got := get(); got != "Bearer first" {
		t.Fatalf("got %q", got)
	}
	if err := os.WriteFile(file, []byte("second-token"), 0o600); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	_ = os.Chtimes(file, later, later)
	if got := get(); got != "Bearer second-token" {
		t.Fatalf("after rotation got %q", got)
	}
	// A missing file keeps the last good token.
	_ = os.Remove(file)
	if got := get(); got != "Bearer second-token" {
		t.Fatalf("after removal got %q", got)
	}
}

func TestConfigStringRedactsSecrets(t *testing.T) {
	cfg := &Config{
		Host: "https://h", BearerToken: "secret-token", Password: "secret-password",
		TLSClientConfig: TLSClientConfig{KeyData: []byte("secret-key"), CertData: []byte("cert")},
		ExecProvider:    &ExecConfig{Command: "c", Env: []ExecEnvVar{{Name: "SECRET", Value: "secret-env"}}},
	}
	for _, s := range []string{cfg.String(), cfg.GoString()} {
		for _, secret := range []string{"secret-token", "secret-password", "secret-key", "secret-env"} {
			if strings.Contains(s, secret) {
				t.Errorf("%q leaked in %s", secret, s)
			}
		}
		if !strings.Contains(s, "https://h") {
			t.Errorf("host missing from %s", s)
		}
	}
	if cfg.BearerToken != "secret-token" || cfg.ExecProvider.Env[0].Value != "secret-env" {
		t.Fatal("String must not modify the config")
	}
}

func TestCopyConfigIsDeep(t *testing.T) {
	orig := &Config{Impersonate: ImpersonationConfig{Groups: []string{"a"}, Extra: map[string][]string{"k": {"v"}}},
		TLSClientConfig: TLSClientConfig{CAData: []byte("ca")}, ExecProvider: &ExecConfig{Args: []string{"x"}}}
	cp := CopyConfig(orig)
	cp.Impersonate.Groups[0] = "changed"
	cp.Impersonate.Extra["k"][0] = "changed"
	cp.CAData[0] = 'X'
	cp.ExecProvider.Args[0] = "changed"
	if orig.Impersonate.Groups[0] != "a" || orig.Impersonate.Extra["k"][0] != "v" || string(orig.CAData) != "ca" || orig.ExecProvider.Args[0] != "x" {
		t.Fatalf("copy shares data: %+v", orig)
	}
}

func TestInClusterConfig(t *testing.T) {
	dir := t.TempDir()
	token, ca := filepath.Join(dir, "token"), filepath.Join(dir, "ca.crt")
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
	if _, err := inClusterConfig(token, ca); err != ErrNotInCluster {
		t.Fatalf("got %v", err)
	}
	t.Setenv("KUBERNETES_SERVICE_HOST", "fd00::1")
	t.Setenv("KUBERNETES_SERVICE_PORT", "443")
	if _, err := inClusterConfig(token, ca); err == nil || !strings.Contains(err.Error(), "token") {
		t.Fatalf("missing token: %v", err)
	}
	_ = os.WriteFile(token, []byte("t"), 0o600)
	_ = os.WriteFile(ca, newTestCA(t).certPEM, 0o600)
	cfg, err := inClusterConfig(token, ca)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "https://[fd00::1]:443" || cfg.BearerTokenFile != token || cfg.CAFile != ca {
		t.Fatalf("%+v", cfg)
	}
}

func TestDefaultServerURL(t *testing.T) {
	for _, tc := range []struct {
		host string
		tls  bool
		want string
	}{
		{"example.com:6443", true, "https://example.com:6443"},
		{"example.com:8080", false, "http://example.com:8080"},
		{"https://example.com/prefix", false, "https://example.com/prefix"},
	} {
		u, err := DefaultServerURL(tc.host, tc.tls)
		if err != nil || u.String() != tc.want {
			t.Errorf("%s: %v %v", tc.host, u, err)
		}
	}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Host: "h:6443", TLSClientConfig: TLSClientConfig{CAData: []byte("x")}}, "https://h:6443"},
		{Config{Host: "h:8080"}, "http://h:8080"},
	} {
		u, _, err := DefaultServerURLFor(&tc.cfg)
		if err != nil || u.String() != tc.want || IsConfigTransportTLS(tc.cfg) != strings.HasPrefix(tc.want, "https") {
			t.Errorf("%s: %v %v", tc.cfg.Host, u, err)
		}
	}
	if p := DefaultVersionedAPIPath("/apis", schemaGV("apps", "v1")); p != "/apis/apps/v1" {
		t.Error(p)
	}
}

// baseTransport follows the wrapper chain of rt down to the *http.Transport.
func baseTransport(t *testing.T, rt http.RoundTripper) *http.Transport {
	t.Helper()
	for {
		switch v := rt.(type) {
		case *http.Transport:
			return v
		case interface{ WrappedRoundTripper() http.RoundTripper }:
			rt = v.WrappedRoundTripper()
		default:
			t.Fatalf("unexpected round tripper %T", rt)
		}
	}
}

func TestBaseTransportsAreShared(t *testing.T) {
	ca := newTestCA(t)
	cfg := &Config{Host: "https://a.example.com", BearerToken: "a", TLSClientConfig: TLSClientConfig{CAData: ca.certPEM}}
	other := &Config{Host: "https://b.example.com", Username: "u", Password: "p", TLSClientConfig: TLSClientConfig{CAData: ca.certPEM}}
	different := &Config{Host: "https://a.example.com", TLSClientConfig: TLSClientConfig{CAData: newTestCA(t).certPEM}}
	transport := func(c *Config) *http.Transport {
		rt, err := TransportFor(c)
		if err != nil {
			t.Fatal(err)
		}
		return baseTransport(t, rt)
	}
	base := transport(cfg)
	if transport(CopyConfig(cfg)) != base || transport(other) != base {
		t.Fatal("configs with the same TLS settings must share a base transport")
	}
	if transport(different) == base {
		t.Fatal("a different CA must get its own transport")
	}
	if base.HTTP2 == nil || base.HTTP2.SendPingTimeout == 0 {
		t.Fatal("HTTP/2 health checks must be on")
	}
	withDial := CopyConfig(cfg)
	withDial.Dial = (&net.Dialer{}).DialContext
	if transport(withDial) == base {
		t.Fatal("a config with its own dialer must not share")
	}
}
