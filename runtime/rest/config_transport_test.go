package rest

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/runtime/rest/transport"
)

func TestTLSClientConfigDeepCopy(t *testing.T) {
	in := TLSClientConfig{Insecure: true, ServerName: "sn", CertFile: "c", KeyFile: "k", CAFile: "ca",
		CertData: []byte("cert"), KeyData: []byte("key"), CAData: []byte("cadata"), NextProtos: []string{"h2"}}
	out := in.DeepCopy()
	if !reflect.DeepEqual(*out, in) {
		t.Fatalf("DeepCopy = %+v; want %+v", *out, in)
	}
	out.CertData[0], out.KeyData[0], out.CAData[0], out.NextProtos[0] = 'X', 'X', 'X', "X"
	if string(in.CertData) != "cert" || string(in.KeyData) != "key" || string(in.CAData) != "cadata" || in.NextProtos[0] != "h2" {
		t.Errorf("changing the copy changed the original: %+v", in)
	}
	var into TLSClientConfig
	in.DeepCopyInto(&into)
	if !reflect.DeepEqual(into, in) || &into.CertData[0] == &in.CertData[0] {
		t.Errorf("DeepCopyInto = %+v; want an unshared copy of %+v", into, in)
	}
	if (*TLSClientConfig)(nil).DeepCopy() != nil {
		t.Error("DeepCopy of nil is not nil")
	}
	// Config embeds TLSClientConfig, so, as in client-go, its DeepCopy copies the TLS settings.
	cfg := &Config{Host: "https://h", TLSClientConfig: in}
	var tlsCopy *TLSClientConfig = cfg.DeepCopy()
	if !reflect.DeepEqual(*tlsCopy, in) {
		t.Errorf("Config.DeepCopy = %+v", *tlsCopy)
	}
}

func TestTransportConfigCopiesSettings(t *testing.T) {
	base := http.DefaultTransport
	var wrapped []string
	dial := func(ctx context.Context, network, address string) (net.Conn, error) { return nil, errors.New("no") }
	proxy := func(*http.Request) (*url.URL, error) { return nil, nil }
	cfg := &Config{
		Host: "https://h", UserAgent: "ua", DisableCompression: true, Transport: base,
		WrapTransport: func(rt http.RoundTripper) http.RoundTripper { wrapped = append(wrapped, "w"); return rt },
		TLSClientConfig: TLSClientConfig{ServerName: "sn", CAFile: "ca", CAData: []byte("cadata"), CertFile: "c", KeyFile: "k",
			CertData: []byte("cert"), KeyData: []byte("key"), NextProtos: []string{"h2"}, Insecure: true},
		Username: "u", Password: "p", BearerToken: "tok", BearerTokenFile: "tokfile",
		Impersonate: ImpersonationConfig{UserName: "bob", UID: "1", Groups: []string{"g"}, Extra: map[string][]string{"k": {"v"}}},
		Dial:        dial, Proxy: proxy,
	}
	conf, err := cfg.TransportConfig()
	if err != nil {
		t.Fatal(err)
	}
	want := transport.TLSConfig{CAFile: "ca", CAData: []byte("cadata"), CertFile: "c", KeyFile: "k", CertData: []byte("cert"),
		KeyData: []byte("key"), ServerName: "sn", Insecure: true, NextProtos: []string{"h2"}}
	if !reflect.DeepEqual(conf.TLS, want) {
		t.Errorf("TLS = %+v; want %+v", conf.TLS, want)
	}
	wantImp := transport.ImpersonationConfig{UserName: "bob", UID: "1", Groups: []string{"g"}, Extra: map[string][]string{"k": {"v"}}}
	if !reflect.DeepEqual(conf.Impersonate, wantImp) {
		t.Errorf("Impersonate = %+v", conf.Impersonate)
	}
	if conf.UserAgent != "ua" || !conf.DisableCompression || conf.Transport != base || conf.Username != "u" || conf.Password != "p" ||
		conf.BearerToken != "tok" || conf.BearerTokenFile != "tokfile" || conf.Proxy == nil || conf.DialHolder == nil {
		t.Errorf("TransportConfig = %+v", conf)
	}
	if _, err := conf.DialHolder.Dial(context.Background(), "tcp", "x"); err == nil || err.Error() != "no" {
		t.Errorf("DialHolder.Dial is not the config's dialer: %v", err)
	}
	if conf.WrapTransport(base) != base || len(wrapped) != 1 {
		t.Errorf("WrapTransport is not the config's wrapper")
	}
	if !conf.HasCA() || !conf.HasBasicAuth() || !conf.HasTokenAuth() || !conf.HasCertAuth() || conf.HasCertCallback() {
		t.Errorf("Has*: CA %v basic %v token %v cert %v callback %v; want all but the callback",
			conf.HasCA(), conf.HasBasicAuth(), conf.HasTokenAuth(), conf.HasCertAuth(), conf.HasCertCallback())
	}
	empty, err := (&Config{Host: "h"}).TransportConfig()
	if err != nil || empty.HasCA() || empty.HasBasicAuth() || empty.HasTokenAuth() || empty.HasCertAuth() || empty.DialHolder != nil || empty.WrapTransport != nil {
		t.Errorf("empty config: %+v, %v", empty, err)
	}
	// Wrap chains wrappers, the new one outermost; a nil one changes nothing.
	var order []string
	empty.Wrap(func(rt http.RoundTripper) http.RoundTripper { order = append(order, "inner"); return rt })
	empty.Wrap(nil)
	empty.Wrap(func(rt http.RoundTripper) http.RoundTripper { order = append(order, "outer"); return rt })
	empty.WrapTransport(base)
	if strings.Join(order, ",") != "inner,outer" {
		t.Errorf("wrappers ran %v; want inner then outer", order)
	}
}

func TestTransportConfigErrors(t *testing.T) {
	exec := &ExecConfig{Command: "plugin", APIVersion: ExecCredentialV1beta1}
	for name, cfg := range map[string]*Config{
		"auth provider":          {AuthProvider: &AuthProviderConfig{Name: "oidc"}},
		"exec and auth provider": {ExecProvider: exec, AuthProvider: &AuthProviderConfig{Name: "oidc"}},
		"exec and token":         {ExecProvider: exec, BearerToken: "t"},
		"exec without version":   {ExecProvider: &ExecConfig{Command: "plugin"}},
	} {
		if conf, err := cfg.TransportConfig(); err == nil {
			t.Errorf("%s: TransportConfig = %+v; want an error", name, conf)
		}
	}
}

// With an exec plugin, the transport config's wrapper adds the plugin's token and its certificate
// callback asks the plugin.
func TestTransportConfigExecPlugin(t *testing.T) {
	plugin := buildPlugin(t)
	srv, last := headerEcho(t, nil)
	cfg := &Config{Host: srv.URL, ExecProvider: &ExecConfig{
		Command: plugin, Args: []string{"tc"}, APIVersion: ExecCredentialV1beta1,
		Env: []ExecEnvVar{{Name: "PLUGIN_ENV", Value: "env"}, {Name: "COUNTER_FILE", Value: filepath.Join(t.TempDir(), "count")}},
	}}
	conf, err := cfg.TransportConfig()
	if err != nil {
		t.Fatal(err)
	}
	if !conf.HasCertCallback() || conf.WrapTransport == nil {
		t.Fatalf("exec plugin not wired: callback %v wrapper %v", conf.HasCertCallback(), conf.WrapTransport != nil)
	}
	client := &http.Client{Transport: conf.WrapTransport(http.DefaultTransport)}
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	drainAndClose(resp)
	if got := last().Get("Authorization"); got != "Bearer tc-env-1" {
		t.Errorf("Authorization = %q; want the plugin's token", got)
	}
	if cert, err := conf.TLS.GetCertHolder.GetCert(); err != nil || cert == nil {
		t.Errorf("GetCert = %v, %v", cert, err)
	}
}
