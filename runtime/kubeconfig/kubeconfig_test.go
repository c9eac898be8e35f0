package kubeconfig

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kgen-dev/kgen/runtime/rest"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const fullConfig = `apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev-cluster
  cluster:
    server: https://dev.example.com:6443
    certificate-authority: ca.crt
    tls-server-name: api.dev
    proxy-url: http://proxy.example.com:3128
- name: insecure
  cluster:
    server: https://insecure.example.com
    insecure-skip-tls-verify: true
users:
- name: dev-user
  user:
    token: s3cr3t-token
    as: jane
    as-groups: [devs]
- name: cert-user
  user:
    client-certificate: certs/client.crt
    client-key: certs/client.key
- name: exec-user
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./bin/plugin
      args: [get-token]
      env: [{name: FOO, value: bar}]
      interactiveMode: Never
      provideClusterInfo: true
- name: basic-user
  user:
    username: admin
    password: hunter2
contexts:
- name: dev
  context: {cluster: dev-cluster, user: dev-user, namespace: team-a}
- name: certs
  context: {cluster: insecure, user: cert-user}
- name: exec
  context: {cluster: insecure, user: exec-user}
- name: basic
  context: {cluster: insecure, user: basic-user}
`

func TestLoadFullConfigAndResolvePaths(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "config", fullConfig)
	writeFile(t, dir, "ca.crt", "ca")
	_ = os.MkdirAll(filepath.Join(dir, "certs"), 0o700)
	writeFile(t, dir, "certs/client.crt", "c")
	writeFile(t, dir, "certs/client.key", "k")
	cfg, err := LoadFromFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.CurrentContext != "dev" || len(cfg.Clusters) != 2 || len(cfg.AuthInfos) != 4 || len(cfg.Contexts) != 4 {
		t.Fatalf("%+v", cfg)
	}
	if cfg.Clusters["dev-cluster"].CertificateAuthority != filepath.Join(dir, "ca.crt") || cfg.Clusters["dev-cluster"].LocationOfOrigin != file {
		t.Fatalf("paths not resolved: %+v", cfg.Clusters["dev-cluster"])
	}
	if cfg.AuthInfos["exec-user"].Exec.Command != filepath.Join(dir, "bin/plugin") {
		t.Fatalf("exec command %q", cfg.AuthInfos["exec-user"].Exec.Command)
	}

	cases := []struct {
		context string
		check   func(*rest.Config) bool
	}{
		{"dev", func(c *rest.Config) bool {
			req, _ := http.NewRequest(http.MethodGet, c.Host, nil)
			proxy, _ := c.Proxy(req)
			return c.Host == "https://dev.example.com:6443" && c.CAFile == filepath.Join(dir, "ca.crt") && c.ServerName == "api.dev" &&
				c.BearerToken == "s3cr3t-token" && c.Impersonate.UserName == "jane" && c.Impersonate.Groups[0] == "devs" &&
				proxy.Host == "proxy.example.com:3128"
		}},
		{"certs", func(c *rest.Config) bool {
			return c.Insecure && c.CertFile == filepath.Join(dir, "certs/client.crt") && c.KeyFile == filepath.Join(dir, "certs/client.key")
		}},
		{"exec", func(c *rest.Config) bool {
			e := c.ExecProvider
			return e != nil && e.APIVersion == rest.ExecCredentialV1 && e.Args[0] == "get-token" && e.Env[0] == (rest.ExecEnvVar{Name: "FOO", Value: "bar"}) &&
				e.InteractiveMode == rest.NeverExecInteractiveMode && e.ProvideClusterInfo
		}},
		{"basic", func(c *rest.Config) bool { return c.Username == "admin" && c.Password == "hunter2" }},
	}
	for _, tc := range cases {
		t.Run(tc.context, func(t *testing.T) {
			rc, err := NewNonInteractiveClientConfig(*cfg, tc.context, nil).ClientConfig()
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(rc) {
				t.Fatalf("unexpected config %s", rc)
			}
		})
	}
}

func TestMergeRules(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a", `
current-context: ctx-a
clusters:
- {name: shared, cluster: {server: "https://a.example.com"}}
users:
- {name: u, user: {token: from-a}}
contexts:
- {name: ctx-a, context: {cluster: shared, user: u}}
`)
	b := writeFile(t, dir, "b", `
current-context: ctx-b
clusters:
- {name: shared, cluster: {server: "https://b.example.com"}}
- {name: only-b, cluster: {server: "https://only-b.example.com"}}
users:
- {name: u, user: {token: from-b}}
contexts:
- {name: ctx-b, context: {cluster: only-b, user: u, namespace: nb}}
`)
	missing := filepath.Join(dir, "missing")
	t.Setenv("KUBECONFIG", strings.Join([]string{missing, a, b, a}, string(os.PathListSeparator)))
	rules := NewDefaultClientConfigLoadingRules()
	if len(rules.Precedence) != 3 {
		t.Fatalf("precedence %v", rules.Precedence)
	}
	cfg, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.CurrentContext != "ctx-a" || cfg.Clusters["shared"].Server != "https://a.example.com" || cfg.AuthInfos["u"].Token != "from-a" || cfg.Clusters["only-b"] == nil || cfg.Contexts["ctx-b"] == nil {
		t.Fatalf("merge: %+v", cfg)
	}
	cc := NewNonInteractiveDeferredLoadingClientConfig(rules, &ConfigOverrides{CurrentContext: "ctx-b"})
	rc, err := cc.ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	if rc.Host != "https://only-b.example.com" || rc.BearerToken != "from-a" {
		t.Fatalf("ctx-b: %s", rc)
	}
	if ns, overridden, err := cc.Namespace(); ns != "nb" || overridden || err != nil {
		t.Fatalf("namespace %q %v %v", ns, overridden, err)
	}
	cc = NewNonInteractiveDeferredLoadingClientConfig(rules, &ConfigOverrides{Context: Context{Namespace: "override"}})
	if ns, overridden, _ := cc.Namespace(); ns != "override" || !overridden {
		t.Fatalf("namespace override %q", ns)
	}
	cc = NewNonInteractiveDeferredLoadingClientConfig(rules, nil)
	if ns, _, _ := cc.Namespace(); ns != "default" {
		t.Fatalf("default namespace %q", ns)
	}

	// An explicit path wins over KUBECONFIG.
	explicit := &ClientConfigLoadingRules{ExplicitPath: b}
	cfg, err = explicit.Load()
	if err != nil || cfg.CurrentContext != "ctx-b" {
		t.Fatalf("explicit: %v %v", cfg, err)
	}
}

func TestBadKubeconfigErrors(t *testing.T) {
	dir := t.TempDir()
	good := `
current-context: c
clusters: [{name: cl, cluster: {server: "https://x.example.com"}}]
users: [{name: u, user: {token: super-secret-token}}]
contexts: [{name: c, context: {cluster: cl, user: u}}]
`
	cases := []struct {
		name      string
		content   string
		overrides ConfigOverrides
		want      []string
	}{
		{"not yaml", "clusters: [unclosed", ConfigOverrides{}, []string{"not a valid kubeconfig", "bad-not yaml"}},
		{"wrong type", "clusters: {name: x}", ConfigOverrides{}, []string{"not a valid kubeconfig"}},
		{"malformed around a secret", strings.Replace(good, "token: super-secret-token", "{token: super-secret-token}", 1), ConfigOverrides{}, []string{"not a valid kubeconfig", "withheld"}},
		{"wrong kind", "kind: Pod", ConfigOverrides{}, []string{`kind is "Pod"`}},
		{"unnamed cluster", "clusters: [{cluster: {server: x}}]", ConfigOverrides{}, []string{"clusters[0] needs a name"}},
		{"missing context", good, ConfigOverrides{CurrentContext: "nope"}, []string{`context "nope" does not exist`, "bad-missing context"}},
		{"missing cluster", strings.Replace(good, "cluster: cl,", "cluster: other,", 1), ConfigOverrides{}, []string{`refers to cluster "other"`}},
		{"missing user", strings.Replace(good, "user: u}", "user: nobody}", 1), ConfigOverrides{}, []string{`refers to user "nobody"`}},
		{"no server", strings.Replace(good, `server: "https://x.example.com"`, `tls-server-name: x`, 1), ConfigOverrides{}, []string{`cluster "cl"`, "has no server"}},
		{"bad server", strings.Replace(good, `https://x.example.com`, `ftp://x`, 1), ConfigOverrides{}, []string{"not an http(s) URL"}},
		{"token and basic", strings.Replace(good, "token: super-secret-token", "token: super-secret-token, username: a, password: b", 1), ConfigOverrides{}, []string{`user "u"`, "cannot both be set"}},
		{"missing token file", strings.Replace(good, "token: super-secret-token", "tokenFile: nothere", 1), ConfigOverrides{}, []string{`user "u"`, "tokenFile", "nothere"}},
		{"missing CA", strings.Replace(good, `server: "https://x.example.com"`, `server: "https://x.example.com", certificate-authority: ca.pem`, 1), ConfigOverrides{}, []string{`cluster "cl"`, "ca.pem"}},
		{"insecure with CA", strings.Replace(good, `server: "https://x.example.com"`, `server: "https://x.example.com", insecure-skip-tls-verify: true, certificate-authority-data: Y2E=`, 1), ConfigOverrides{}, []string{"insecure-skip-tls-verify cannot be combined"}},
		{"cert without key", strings.Replace(good, "token: super-secret-token", "client-certificate-data: Y2E=", 1), ConfigOverrides{}, []string{"must be given together"}},
		{"exec without version", strings.Replace(good, "token: super-secret-token", "exec: {command: x}", 1), ConfigOverrides{}, []string{"exec needs an apiVersion"}},
		{"exec bad mode", strings.Replace(good, "token: super-secret-token", "exec: {command: x, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Sometimes}", 1), ConfigOverrides{}, []string{`"Sometimes"`}},
		{"auth provider", strings.Replace(good, "token: super-secret-token", "auth-provider: {name: gcp}", 1), ConfigOverrides{}, []string{`auth-provider "gcp" is not supported`}},
		{"no current context", strings.Replace(good, "current-context: c", "", 1), ConfigOverrides{}, []string{"no current context"}},
		{"bad proxy scheme", strings.Replace(good, `server: "https://x.example.com"`, `server: "https://x.example.com", proxy-url: "ftp://proxy:21"`, 1), ConfigOverrides{}, []string{`cluster "cl"`, `proxy-url scheme "ftp"`}},
		{"bad timeout", good, ConfigOverrides{Timeout: "soon"}, []string{`invalid request timeout "soon"`}},
		{"pool too large", strings.Replace(good, `server: "https://x.example.com"`, `server: "https://x.example.com", min-connection-pool-size: 101`, 1), ConfigOverrides{}, []string{`cluster "cl"`, "min-connection-pool-size 101 must be between 0 and 100"}},
		{"negative pool", strings.Replace(good, `server: "https://x.example.com"`, `server: "https://x.example.com", min-connection-pool-size: -1`, 1), ConfigOverrides{}, []string{"min-connection-pool-size -1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := writeFile(t, dir, "bad-"+tc.name, tc.content)
			_, err := NewNonInteractiveDeferredLoadingClientConfig(&ClientConfigLoadingRules{ExplicitPath: file}, &tc.overrides).ClientConfig()
			if err == nil {
				t.Fatal("want error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "super-secret-token") {
				t.Errorf("secret leaked: %v", err)
			}
		})
	}
	_, err := (&ClientConfigLoadingRules{ExplicitPath: filepath.Join(dir, "absent")}).Load()
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "absent") {
		t.Fatalf("explicit missing file: %v", err)
	}
	_, err = (&ClientConfigLoadingRules{Precedence: []string{filepath.Join(dir, "absent")}}).Load()
	if !errors.Is(err, ErrEmptyConfig) {
		t.Fatalf("no files: %v", err)
	}
}

func TestWriteRoundTrip(t *testing.T) {
	dir := t.TempDir()
	cfg, err := Load([]byte(fullConfig))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "out", "config")
	if err := WriteToFile(cfg, file); err != nil {
		t.Fatal(err)
	}
	again, err := LoadFromFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if again.CurrentContext != "dev" || again.AuthInfos["dev-user"].Token != "s3cr3t-token" || len(again.Contexts) != 4 {
		t.Fatalf("%+v", again)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
}

func TestFlagsAndEndToEnd(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-b" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"major":"1","minor":"37"}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	file := writeFile(t, dir, "config", `
current-context: a
clusters: [{name: cl, cluster: {server: "`+srv.URL+`"}}]
users: [{name: ua, user: {token: tok-a}}, {name: ub, user: {token: tok-b}}]
contexts: [{name: a, context: {cluster: cl, user: ua}}, {name: b, context: {cluster: cl, user: ub, namespace: nsb}}]
`)
	var flags ConfigFlags
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	flags.AddFlags(fs)
	if err := fs.Parse([]string{"--kubeconfig", file, "--context", "b", "-n", "flagns"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := flags.ToRESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	if ns, overridden, err := flags.ToNamespace(); ns != "flagns" || !overridden || err != nil {
		t.Fatalf("namespace %q %v %v", ns, overridden, err)
	}
	cfg.GroupVersion = &schema.GroupVersion{}
	client, err := rest.UnversionedRESTClientFor(withCodecs(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Get().AbsPath("/version").DoRaw(context.Background()); err != nil {
		t.Fatal(err)
	}

	// KUBECONFIG selects the file for InClusterOrKubeconfig even inside a pod.
	t.Setenv("KUBECONFIG", file)
	t.Setenv("KUBERNETES_SERVICE_HOST", "10.0.0.1")
	t.Setenv("KUBERNETES_SERVICE_PORT", "443")
	cfg, err = InClusterOrKubeconfig(nil, nil)
	if err != nil || cfg.BearerToken != "tok-a" {
		t.Fatalf("%v %v", cfg, err)
	}
	cfg, err = BuildConfigFromFlags("https://override.example.com", file)
	if err != nil || cfg.Host != "https://override.example.com" {
		t.Fatalf("%v %v", cfg, err)
	}
	data, _ := os.ReadFile(file)
	cfg, err = RESTConfigFromKubeConfig(data)
	if err != nil || cfg.Host != srv.URL || cfg.BearerToken != "tok-a" {
		t.Fatalf("%v %v", cfg, err)
	}
	cc, err := NewClientConfigFromBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := cc.RawConfig(); len(raw.Contexts) != 2 {
		t.Fatalf("raw config %+v", raw)
	}
	if _, err := NewClientConfigFromBytes([]byte("contexts: [oops")); err == nil {
		t.Fatal("want a parse error")
	}
}

func withCodecs(cfg *rest.Config) *rest.Config {
	scheme := runtime.NewScheme()
	cfg.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	return cfg
}

func TestInClusterFallback(t *testing.T) {
	dir := t.TempDir()
	home := writeFile(t, dir, "config", `
current-context: c
clusters: [{name: cl, cluster: {server: "https://home.example.com"}}]
users: [{name: u, user: {token: home-token}}]
contexts: [{name: c, context: {cluster: cl, user: u, namespace: home-ns}}]
`)
	podConfig := &rest.Config{Host: "https://10.0.0.1:443", BearerTokenFile: "/var/run/token"}
	inPod := true
	saved := inClusterConfig
	inClusterConfig = func() (*rest.Config, error) {
		if inPod {
			return rest.CopyConfig(podConfig), nil
		}
		return nil, rest.ErrNotInCluster
	}
	defer func() { inClusterConfig = saved }()
	t.Setenv("KUBECONFIG", "")
	rules := &ClientConfigLoadingRules{Precedence: []string{home}}

	cfg, err := InClusterOrKubeconfig(rules, &ConfigOverrides{Timeout: "5s"})
	if err != nil || cfg.Host != podConfig.Host || cfg.Timeout != 5*time.Second {
		t.Fatalf("in a pod: %v %v", cfg, err)
	}
	cfg, err = BuildConfigFromFlags("", "")
	if err != nil || cfg.Host != podConfig.Host {
		t.Fatalf("BuildConfigFromFlags in a pod: %v %v", cfg, err)
	}
	explicit := &ClientConfigLoadingRules{ExplicitPath: home}
	if cfg, err := InClusterOrKubeconfig(explicit, nil); err != nil || cfg.Host != "https://home.example.com" {
		t.Fatalf("an explicit kubeconfig wins over the pod: %v %v", cfg, err)
	}
	inPod = false
	if cfg, err := InClusterOrKubeconfig(rules, nil); err != nil || cfg.BearerToken != "home-token" {
		t.Fatalf("outside a pod: %v %v", cfg, err)
	}

	t.Setenv("POD_NAMESPACE", "pod-ns")
	empty := &ClientConfigLoadingRules{Precedence: []string{filepath.Join(dir, "absent")}}
	if ns, _, err := NewNonInteractiveDeferredLoadingClientConfig(empty, nil).Namespace(); err != nil || ns != "pod-ns" {
		t.Fatalf("in-cluster namespace: %q %v", ns, err)
	}
}

func TestDefaultHomeKubeconfig(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("KUBECONFIG", "")
	_ = os.MkdirAll(filepath.Join(home, ".kube"), 0o700)
	writeFile(t, filepath.Join(home, ".kube"), "config", `
current-context: c
clusters: [{name: cl, cluster: {server: "https://home.example.com"}}]
contexts: [{name: c, context: {cluster: cl}}]
`)
	rules := NewDefaultClientConfigLoadingRules()
	if len(rules.Precedence) != 1 || rules.Precedence[0] != filepath.Join(home, ".kube", "config") || RecommendedHomeFile() != rules.Precedence[0] {
		t.Fatalf("precedence %v", rules.Precedence)
	}
	cfg, err := NewNonInteractiveDeferredLoadingClientConfig(rules, nil).ClientConfig()
	if err != nil || cfg.Host != "https://home.example.com" {
		t.Fatalf("%v %v", cfg, err)
	}
}

func TestMinConnectionPoolSizeReachesTheRESTConfig(t *testing.T) {
	file := writeFile(t, t.TempDir(), "config", `
current-context: c
clusters: [{name: cl, cluster: {server: "https://x.example.com", min-connection-pool-size: 4}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: cl, user: u}}]
`)
	cfg, err := NewNonInteractiveDeferredLoadingClientConfig(&ClientConfigLoadingRules{ExplicitPath: file}, &ConfigOverrides{}).ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MinConnectionPoolSize != 4 {
		t.Fatalf("MinConnectionPoolSize = %d, want 4", cfg.MinConnectionPoolSize)
	}
	loaded, err := LoadFromFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Write(loaded)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "min-connection-pool-size: 4") {
		t.Fatalf("written kubeconfig lost the pool size:\n%s", out)
	}
}
