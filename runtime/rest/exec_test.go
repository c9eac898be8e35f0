package rest

import (
	"context"
	"crypto/x509"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildPlugin compiles testdata/execplugin into a temporary directory.
func buildPlugin(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "execplugin")
	if out, err := exec.Command("go", "build", "-o", path, "./testdata/execplugin").CombinedOutput(); err != nil {
		t.Fatalf("building exec plugin: %v\n%s", err, out)
	}
	return path
}

func runs(t *testing.T, counter string) int {
	b, _ := os.ReadFile(counter)
	return strings.Count(string(b), "\n")
}

func TestExecPluginTokenCachingAndRerunOn401(t *testing.T) {
	plugin := buildPlugin(t)
	for _, version := range []string{ExecCredentialV1, ExecCredentialV1beta1} {
		t.Run(version, func(t *testing.T) {
			counter := filepath.Join(t.TempDir(), "count")
			// The server accepts only the token of the plugin's second run.
			srv, last := headerEcho(t, func(r *http.Request) int {
				if r.Header.Get("Authorization") == "Bearer argA,argB-envval-2" {
					return http.StatusOK
				}
				return http.StatusUnauthorized
			})
			cfg := &Config{Host: srv.URL, ExecProvider: &ExecConfig{
				Command: plugin, Args: []string{"argA", "argB"}, APIVersion: version,
				Env:             []ExecEnvVar{{Name: "PLUGIN_ENV", Value: "envval"}, {Name: "COUNTER_FILE", Value: counter}},
				InteractiveMode: NeverExecInteractiveMode,
			}}
			client, err := HTTPClientFor(cfg)
			if err != nil {
				t.Fatal(err)
			}
			// A second client from an identical configuration shares the cached credentials.
			other, err := HTTPClientFor(CopyConfig(cfg))
			if err != nil {
				t.Fatal(err)
			}
			for i := range 4 {
				client := client
				if i == 3 {
					client = other
				}
				resp, err := client.Post(srv.URL, "application/json", strings.NewReader("{}"))
				if err != nil {
					t.Fatal(err)
				}
				drainAndClose(resp)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("request %d: status %d, auth %q", i, resp.StatusCode, last().Get("Authorization"))
				}
			}
			if n := runs(t, counter); n != 2 {
				t.Fatalf("plugin ran %d times, want 2 (once, then once after the 401)", n)
			}
		})
	}
}

func TestExecPluginExpiry(t *testing.T) {
	plugin := buildPlugin(t)
	counter := filepath.Join(t.TempDir(), "count")
	srv, last := headerEcho(t, nil)
	cfg := &Config{Host: srv.URL, ExecProvider: &ExecConfig{
		Command: plugin, APIVersion: ExecCredentialV1beta1, ProvideClusterInfo: true,
		Env: []ExecEnvVar{{Name: "COUNTER_FILE", Value: counter}, {Name: "PLUGIN_EXPIRES_IN", Value: "1h"}},
	}}
	rt, err := TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	auth := findExecAuth(t, rt)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL, nil)
	do := func() string {
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		drainAndClose(resp)
		return last().Get("Authorization")
	}
	if got := do(); got != "Bearer --1-"+srv.URL {
		t.Fatalf("got %q (cluster info must reach the plugin)", got)
	}
	do()
	if n := runs(t, counter); n != 1 {
		t.Fatalf("runs = %d before expiry", n)
	}
	base := auth.now
	auth.now = func() time.Time { return base().Add(2 * time.Hour) }
	if got := do(); !strings.HasPrefix(got, "Bearer --2-") {
		t.Fatalf("after expiry got %q", got)
	}
}

func findExecAuth(t *testing.T, rt http.RoundTripper) *execAuthenticator {
	for rt != nil {
		if a, ok := rt.(*execAuthenticator); ok {
			return a
		}
		w, ok := rt.(interface{ WrappedRoundTripper() http.RoundTripper })
		if !ok {
			break
		}
		rt = w.WrappedRoundTripper()
	}
	t.Fatal("no exec authenticator in the chain")
	return nil
}

func TestExecPluginErrorsDoNotLeakOutput(t *testing.T) {
	plugin := buildPlugin(t)
	counter := filepath.Join(t.TempDir(), "count")
	srv, _ := headerEcho(t, nil)
	cases := map[string]struct {
		exec    ExecConfig
		wantErr string
	}{
		"exit code": {ExecConfig{Command: plugin, APIVersion: ExecCredentialV1beta1,
			Env: []ExecEnvVar{{Name: "COUNTER_FILE", Value: counter}, {Name: "PLUGIN_FAIL", Value: "1"}}}, "exit code 7"},
		"not found": {ExecConfig{Command: filepath.Join(t.TempDir(), "missing-plugin"), APIVersion: ExecCredentialV1beta1,
			InstallHint: "install it with brew"}, "install it with brew"},
		"interactive required": {ExecConfig{Command: plugin, APIVersion: ExecCredentialV1, InteractiveMode: AlwaysExecInteractiveMode,
			StdinUnavailable: true, StdinUnavailableMessage: "stdin used by the test"}, "stdin used by the test"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := tc.exec
			client, err := HTTPClientFor(&Config{Host: srv.URL, ExecProvider: &e})
			if err != nil {
				t.Fatal(err)
			}
			_, err = client.Get(srv.URL)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v, want %q", err, tc.wantErr)
			}
			if strings.Contains(err.Error(), "secret-output") {
				t.Fatalf("plugin output leaked: %v", err)
			}
		})
	}
}

func TestExecPluginClientCertificate(t *testing.T) {
	plugin := buildPlugin(t)
	ca := newTestCA(t)
	srv := tlsServer(t, ca, true)
	certPEM, keyPEM := ca.issue(t, "exec-user", nil, nil, x509.ExtKeyUsageClientAuth)
	cfg := &Config{Host: srv.URL, TLSClientConfig: TLSClientConfig{CAData: ca.certPEM}, ExecProvider: &ExecConfig{
		Command: plugin, APIVersion: ExecCredentialV1, InteractiveMode: IfAvailableExecInteractiveMode,
		Env: []ExecEnvVar{{Name: "COUNTER_FILE", Value: filepath.Join(t.TempDir(), "count")},
			{Name: "PLUGIN_CERT", Value: string(certPEM)}, {Name: "PLUGIN_KEY", Value: string(keyPEM)}},
	}}
	h, _, err := fetch(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cn := h.Get("X-Client"); cn != "exec-user" {
		t.Fatalf("server saw client certificate %q", cn)
	}
}

func TestExecTokenKeepsConfiguredClientCertificate(t *testing.T) {
	plugin := buildPlugin(t)
	ca := newTestCA(t)
	srv := tlsServer(t, ca, true)
	certPEM, keyPEM := ca.issue(t, "static-user", nil, nil, x509.ExtKeyUsageClientAuth)
	cfg := &Config{Host: srv.URL, TLSClientConfig: TLSClientConfig{CAData: ca.certPEM, CertData: certPEM, KeyData: keyPEM},
		ExecProvider: &ExecConfig{Command: plugin, APIVersion: ExecCredentialV1beta1,
			Env: []ExecEnvVar{{Name: "COUNTER_FILE", Value: filepath.Join(t.TempDir(), "count")}}}}
	h, _, err := fetch(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cn := h.Get("X-Client"); cn != "static-user" {
		t.Fatalf("server saw client certificate %q, want the configured one", cn)
	}
}
