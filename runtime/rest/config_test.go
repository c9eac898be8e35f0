package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func TestConfigHelpers(t *testing.T) {
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.crt")
	_ = os.WriteFile(ca, []byte("ca-pem"), 0o600)
	cfg := &Config{Host: "https://h", BearerToken: "secret", Username: "u", Password: "p",
		TLSClientConfig: TLSClientConfig{CAFile: ca, CertData: []byte("cert"), KeyData: []byte("key"), ServerName: "sn"},
		QPS:             7, Burst: 9}
	if err := LoadTLSFiles(cfg); err != nil || string(cfg.CAData) != "ca-pem" {
		t.Fatalf("LoadTLSFiles: %v %q", err, cfg.CAData)
	}
	if err := LoadTLSFiles(&Config{TLSClientConfig: TLSClientConfig{KeyFile: filepath.Join(dir, "missing")}}); err == nil || !strings.Contains(err.Error(), "client key") {
		t.Fatalf("missing key file: %v", err)
	}
	anon := AnonymousClientConfig(cfg)
	if anon.BearerToken != "" || anon.Username != "" || anon.Password != "" || anon.CertData != nil || anon.KeyData != nil {
		t.Fatalf("credentials kept: %s", anon)
	}
	if anon.Host != "https://h" || string(anon.CAData) != "ca-pem" || anon.ServerName != "sn" || anon.QPS != 7 || anon.Burst != 9 {
		t.Fatalf("server settings lost: %s", anon)
	}
	AddUserAgent(cfg, "my-controller")
	if !strings.HasSuffix(cfg.UserAgent, "/my-controller") || !strings.Contains(cfg.UserAgent, "kgen") {
		t.Fatalf("user agent %q", cfg.UserAgent)
	}
	empty := &Config{}
	if err := SetKubernetesDefaults(empty); err != nil || empty.UserAgent != DefaultKubernetesUserAgent() {
		t.Fatalf("defaults: %v %q", err, empty.UserAgent)
	}
}

// recordingHandler keeps the warnings it is given.
type recordingHandler struct{ texts []string }

func (h *recordingHandler) HandleWarningHeader(_ int, _ string, text string) {
	h.texts = append(h.texts, text)
}

func TestPerRequestOverrides(t *testing.T) {
	var seen string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.URL.RequestURI()
		w.Header().Set("Warning", `299 - "per-request"`)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
	}))
	defer srv.Close()
	clientHandler := &recordingHandler{}
	c := coreClient(t, srv, func(c *Config) { c.WarningHandler = clientHandler })
	requestHandler := &recordingHandler{}
	limiter := &countingLimiter{}
	err := c.Get().RequestURI("/apis/x/v1/things?labelSelector=a%3Db").Throttle(limiter).WarningHandler(requestHandler).Do(context.Background()).Error()
	if err != nil {
		t.Fatal(err)
	}
	if seen != "/apis/x/v1/things?labelSelector=a%3Db" {
		t.Fatalf("RequestURI sent %q", seen)
	}
	if limiter.waits.Load() != 1 || len(requestHandler.texts) != 1 || len(clientHandler.texts) != 0 {
		t.Fatalf("overrides not used: waits=%d request=%v client=%v", limiter.waits.Load(), requestHandler.texts, clientHandler.texts)
	}
	_ = c.Get().Resource("pods").Do(context.Background())
	if len(clientHandler.texts) != 1 {
		t.Fatalf("client handler: %v", clientHandler.texts)
	}
	SetDefaultWarningHandler(NoWarnings{})
	defer SetDefaultWarningHandler(WarningLogger{})
	plain := coreClient(t, srv)
	if res := plain.Get().Resource("pods").Do(context.Background()); len(res.Warnings()) != 1 {
		t.Fatalf("warnings must still be returned with NoWarnings: %v", res.Warnings())
	}
}

func TestRESTClientForGroupVersion(t *testing.T) {
	var path, contentType string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, contentType = r.URL.Path, r.Header.Get("Content-Type")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`))
	}))
	defer server.Close()
	config := &Config{Host: server.URL}
	client, err := RESTClientForGroupVersion(config, "/api", corev1.SchemeGroupVersion, testScheme)
	if err != nil {
		t.Fatal(err)
	}
	if config.GroupVersion != nil || config.APIPath != "" || config.NegotiatedSerializer != nil {
		t.Fatalf("the caller's config was modified: %s", config)
	}
	out := &corev1.ConfigMap{}
	err = client.Post().Namespace("ns").Resource("configmaps").Body(&corev1.ConfigMap{}).Do(context.Background()).Into(out)
	if err != nil || out.Name != "c" {
		t.Fatalf("decoded %+v, %v", out, err)
	}
	if path != "/api/v1/namespaces/ns/configmaps" || contentType != "application/json" {
		t.Fatalf("request to %s as %q", path, contentType)
	}
	if _, err := RESTClientForGroupVersion(&Config{Host: "::bad"}, "/api", corev1.SchemeGroupVersion, testScheme); err == nil {
		t.Fatal("a bad host was accepted")
	}
}

// contextHandler keeps the warnings it is given with a value of the request's context.
type contextHandler struct{ seen []string }

type ctxKey struct{}

func (h *contextHandler) HandleWarningHeaderWithContext(ctx context.Context, _ int, _ string, text string) {
	v, _ := ctx.Value(ctxKey{}).(string)
	h.seen = append(h.seen, v+":"+text)
}

// TestWarningHandlerWithContext: the context-aware handler gets the request's context and wins
// over WarningHandler; a request can set its own.
func TestWarningHandlerWithContext(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Warning", `299 - "careful"`)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
	}))
	defer srv.Close()
	plain, withCtx := &recordingHandler{}, &contextHandler{}
	c := coreClient(t, srv, func(c *Config) { c.WarningHandler, c.WarningHandlerWithContext = plain, withCtx })
	ctx := context.WithValue(context.Background(), ctxKey{}, "req")
	if err := c.Get().Resource("pods").Do(ctx).Error(); err != nil {
		t.Fatal(err)
	}
	if len(plain.texts) != 0 || len(withCtx.seen) != 1 || withCtx.seen[0] != "req:careful" {
		t.Fatalf("plain %v, with context %v", plain.texts, withCtx.seen)
	}
	perRequest := &contextHandler{}
	if _, err := c.Get().Resource("pods").WarningHandlerWithContext(perRequest).DoRaw(ctx); err != nil {
		t.Fatal(err)
	}
	if len(perRequest.seen) != 1 || len(withCtx.seen) != 1 {
		t.Fatalf("per request %v, client %v", perRequest.seen, withCtx.seen)
	}
}

// TestAuthProviderIsReportedUnsupported: a Config naming an auth-provider plugin fails to build
// a transport with an error that names the plugin and the way out; CopyConfig keeps the fields.
func TestAuthProviderIsReportedUnsupported(t *testing.T) {
	cfg := &Config{Host: "https://h", AuthProvider: &AuthProviderConfig{Name: "oidc", Config: map[string]string{"k": "v"}}}
	copied := CopyConfig(cfg)
	if copied.AuthProvider == cfg.AuthProvider || copied.AuthProvider.Config["k"] != "v" {
		t.Fatalf("CopyConfig: %+v", copied.AuthProvider)
	}
	_, err := TransportFor(cfg)
	if err == nil || !strings.Contains(err.Error(), `"oidc"`) || !strings.Contains(err.Error(), "ExecProvider") {
		t.Fatalf("TransportFor: %v", err)
	}
	if _, err := RESTClientFor(cfg); err == nil {
		t.Fatal("RESTClientFor accepted an auth provider")
	}
}

// namedTripper records the order wrappers were applied in.
type namedTripper struct {
	http.RoundTripper
	name string
}

// TestConfigWrapChainsWrappers: each Wrap wraps what the wrappers before it returned.
func TestConfigWrapChainsWrappers(t *testing.T) {
	cfg := &Config{}
	cfg.Wrap(nil)
	if cfg.WrapTransport != nil {
		t.Fatal("nil wrapper installed")
	}
	for _, name := range []string{"first", "second"} {
		cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return namedTripper{rt, name} })
	}
	outer := cfg.WrapTransport(http.DefaultTransport).(namedTripper)
	inner, ok := outer.RoundTripper.(namedTripper)
	if outer.name != "second" || !ok || inner.name != "first" || inner.RoundTripper != http.DefaultTransport {
		t.Fatalf("wrapped as %+v", outer)
	}
}
