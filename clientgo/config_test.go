package clientgo

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	clientgorest "k8s.io/client-go/rest"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/kgen-dev/kgen/runtime/rest"
)

type persister struct{}

func (persister) Persist(map[string]string) error { return nil }

type warnings struct{}

func (warnings) HandleWarningHeader(int, string, string)                             {}
func (warnings) HandleWarningHeaderWithContext(context.Context, int, string, string) {}

// fullConfig returns a kgen config with every field set.
func fullConfig() *rest.Config {
	return &rest.Config{
		Host: "https://example.com:6443", APIPath: "/apis", MinConnectionPoolSize: 2,
		ContentConfig: rest.ContentConfig{
			AcceptContentTypes: "application/vnd.kubernetes.protobuf", ContentType: "application/json",
			GroupVersion:         &schema.GroupVersion{Group: "apps", Version: "v1"},
			NegotiatedSerializer: serializer.NewCodecFactory(runtime.NewScheme()),
		},
		Username: "u", Password: "p", BearerToken: "t", BearerTokenFile: "/token",
		Impersonate: rest.ImpersonationConfig{UserName: "alice", UID: "42", Groups: []string{"g"}, Extra: map[string][]string{"k": {"v"}}},
		ExecProvider: &rest.ExecConfig{
			Command: "plugin", Args: []string{"--a"}, Env: []rest.ExecEnvVar{{Name: "N", Value: "V"}},
			APIVersion: "client.authentication.k8s.io/v1", InstallHint: "install it", ProvideClusterInfo: true,
			InteractiveMode: rest.IfAvailableExecInteractiveMode, StdinUnavailable: true, StdinUnavailableMessage: "no stdin",
		},
		AuthProvider:        &rest.AuthProviderConfig{Name: "oidc", Config: map[string]string{"k": "v"}},
		AuthConfigPersister: persister{},
		TLSClientConfig: rest.TLSClientConfig{
			Insecure: true, ServerName: "sni", CertFile: "/c", KeyFile: "/k", CAFile: "/ca",
			CertData: []byte("c"), KeyData: []byte("k"), CAData: []byte("ca"), NextProtos: []string{"h2"},
		},
		UserAgent: "ua", DisableCompression: true,
		Transport:     http.DefaultTransport,
		WrapTransport: func(rt http.RoundTripper) http.RoundTripper { return rt },
		QPS:           7, Burst: 9,
		RateLimiter:               rest.NewTokenBucketRateLimiter(7, 9),
		WarningHandler:            warnings{},
		WarningHandlerWithContext: warnings{},
		Timeout:                   time.Minute,
		Dial:                      (&net.Dialer{}).DialContext,
		Proxy:                     func(*http.Request) (*url.URL, error) { return nil, nil },
	}
}

// checkAllSet fails for every zero field of the struct v points to but those named in except,
// descending into embedded structs: a converter that forgets a field (or a field added later) shows
// up here.
func checkAllSet(t *testing.T, what string, v any, except ...string) {
	t.Helper()
	val := reflect.ValueOf(v).Elem()
	for i := range val.NumField() {
		f, field := val.Field(i), val.Type().Field(i)
		if field.Anonymous && f.Kind() == reflect.Struct {
			checkAllSet(t, what, f.Addr().Interface(), except...)
			continue
		}
		if f.IsZero() && !slices.Contains(except, field.Name) {
			t.Errorf("%s: field %s not carried over", what, field.Name)
		}
	}
}

func funcPtr(f any) uintptr { return reflect.ValueOf(f).Pointer() }

func TestRESTConfigCarriesEveryField(t *testing.T) {
	in := fullConfig()
	checkAllSet(t, "kgen test config", in)
	out := RESTConfig(in)
	checkAllSet(t, "client-go config", out)
	// Config and PluginPolicy exist in client-go only; FromRESTConfig refuses them when set.
	checkAllSet(t, "client-go exec config", out.ExecProvider, "Config", "PluginPolicy")
	if out.Host != in.Host || out.CAFile != in.CAFile || string(out.KeyData) != "k" || out.Impersonate.Extra["k"][0] != "v" ||
		out.ExecProvider.Env[0] != (clientcmdapi.ExecEnvVar{Name: "N", Value: "V"}) ||
		out.ExecProvider.InteractiveMode != clientcmdapi.IfAvailableExecInteractiveMode ||
		out.RateLimiter != in.RateLimiter || funcPtr(out.WrapTransport) != funcPtr(in.WrapTransport) ||
		out.QPS != 7 || out.Burst != 9 || *out.GroupVersion != *in.GroupVersion {
		t.Fatalf("converted config differs: %+v", out)
	}

	// The conversion copies what it may: changing the source afterwards leaves it alone.
	in.CAData[0] = 'X'
	in.Impersonate.Groups[0] = "X"
	in.ExecProvider.Args[0] = "X"
	in.GroupVersion.Version = "X"
	if string(out.CAData) != "ca" || out.Impersonate.Groups[0] != "g" || out.ExecProvider.Args[0] != "--a" || out.GroupVersion.Version != "v1" {
		t.Fatalf("converted config shares the source's memory: %+v", out)
	}
}

func TestFromRESTConfigRoundTrips(t *testing.T) {
	in := fullConfig()
	back, err := FromRESTConfig(RESTConfig(in))
	if err != nil {
		t.Fatal(err)
	}
	// client-go v0.37 has no MinConnectionPoolSize: the pool size is not carried to it.
	checkAllSet(t, "kgen config", back, "MinConnectionPoolSize")
	checkAllSet(t, "kgen exec config", back.ExecProvider)
	for _, f := range [][2]any{{in.WrapTransport, back.WrapTransport}, {in.Dial, back.Dial}, {in.Proxy, back.Proxy}} {
		if funcPtr(f[0]) != funcPtr(f[1]) {
			t.Errorf("function field not carried over")
		}
	}
	// Functions cannot be compared by reflect.DeepEqual; compare the rest.
	in.WrapTransport, back.WrapTransport, in.Dial, back.Dial, in.Proxy, back.Proxy = nil, nil, nil, nil, nil, nil
	in.MinConnectionPoolSize = 0
	if !reflect.DeepEqual(in, back) {
		t.Fatalf("round trip changed the config:\n%+v\n%+v", in, back)
	}
	if c, err := FromRESTConfig(nil); c != nil || err != nil || RESTConfig(nil) != nil {
		t.Fatalf("nil: %v %v", c, err)
	}
}

func TestFromRESTConfigRefusesWhatKgenCannotCarry(t *testing.T) {
	for name, c := range map[string]struct {
		exec *clientcmdapi.ExecConfig
		want string
	}{
		"cluster data": {&clientcmdapi.ExecConfig{Command: "p", Config: &runtime.Unknown{}}, "cluster extension data"},
		"deny all":     {&clientcmdapi.ExecConfig{Command: "p", PluginPolicy: clientcmdapi.PluginPolicy{PolicyType: clientcmdapi.PluginPolicyDenyAll}}, `plugin policy "DenyAll"`},
		"allowlist": {&clientcmdapi.ExecConfig{Command: "p", PluginPolicy: clientcmdapi.PluginPolicy{
			PolicyType: clientcmdapi.PluginPolicyAllowlist, Allowlist: []clientcmdapi.AllowlistEntry{{Command: "p"}}}}, `plugin policy "Allowlist"`},
	} {
		if _, err := FromRESTConfig(&clientgorest.Config{Host: "h", ExecProvider: c.exec}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", name, err, c.want)
		}
	}
	allowAll := &clientgorest.Config{ExecProvider: &clientcmdapi.ExecConfig{Command: "p", PluginPolicy: clientcmdapi.PluginPolicy{PolicyType: clientcmdapi.PluginPolicyAllowAll}}}
	if c, err := FromRESTConfig(allowAll); err != nil || c.ExecProvider.Command != "p" {
		t.Fatalf("an allow-all policy is kgen's behaviour: %v, %v", c, err)
	}
	if _, err := NewClientset(nil); err == nil {
		t.Fatal("NewClientset(nil) succeeded")
	}
}
