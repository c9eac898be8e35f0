//go:build linux

package testenv

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const guardConfiguration = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: guard}
webhooks:
- name: guard.example.kgen.dev
  clientConfig:
    service: {namespace: system, name: webhook, path: /guard}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  objectSelector: {matchLabels: {guarded: "yes"}}
  sideEffects: None
  admissionReviewVersions: [v1]
  failurePolicy: Fail
`

// serveWebhooks serves h with the environment's webhook certificate on its webhook address until the test ends.
func serveWebhooks(t *testing.T, e *Environment, h http.Handler) {
	t.Helper()
	s := e.WebhookServing()
	cert, err := tls.LoadX509KeyPair(filepath.Join(s.CertDir, s.CertName), filepath.Join(s.CertDir, s.KeyName))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	t.Cleanup(func() { _ = srv.Close() })
	if err := e.WaitForWebhookServer(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// denyAll answers every AdmissionReview with a denial naming the path.
func denyAll(w http.ResponseWriter, r *http.Request) {
	var review struct {
		Request struct {
			UID string `json:"uid"`
		} `json:"request"`
	}
	_ = json.NewDecoder(r.Body).Decode(&review)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
		"response": map[string]any{"uid": review.Request.UID, "allowed": false, "status": map[string]any{"code": 403, "message": "denied by " + r.URL.Path}}})
}

func TestWebhookConfigurationsCallTheTestServer(t *testing.T) {
	e := startEnv(t, Options{Webhooks: WebhookOptions{Configurations: []any{[]byte(guardConfiguration)}}})
	serving := e.WebhookServing()
	if serving.Host != "127.0.0.1" || serving.Port == 0 || len(serving.CAData) == 0 {
		t.Fatalf("serving %+v", serving)
	}
	c := newAPIClient(t, e.Config())
	stored := c.must(200, "GET", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/guard", nil)
	hooks := stored["webhooks"].([]any)
	if len(hooks) != 2 {
		t.Fatalf("webhooks %v, want guard and the probe", hooks)
	}
	guard := hooks[0].(map[string]any)["clientConfig"].(map[string]any)
	if guard["url"] != serving.URL("/guard") || guard["service"] != nil {
		t.Fatalf("guard client config %v, want url %s", guard, serving.URL("/guard"))
	}
	if ca, _ := base64.StdEncoding.DecodeString(guard["caBundle"].(string)); string(ca) != string(serving.CAData) {
		t.Fatal("caBundle is not the environment's CA")
	}
	if name := hooks[1].(map[string]any)["name"]; name != probeWebhook {
		t.Fatalf("second webhook %v", name)
	}

	// Start returned once the configuration was live: the first guarded write reaches the test's server.
	serveWebhooks(t, e, http.HandlerFunc(denyAll))
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "g", "labels": map[string]any{"guarded": "yes"}}}
	status, out := c.do("POST", "/api/v1/namespaces/default/configmaps", cm)
	if status != 403 || !strings.Contains(out["message"].(string), `admission webhook "guard.example.kgen.dev" denied the request: denied by /guard`) {
		t.Fatalf("guarded ConfigMap: %d %v", status, out["message"])
	}
	// Unlabelled objects are not the webhook's business, nor the probe's.
	c.must(201, "POST", "/api/v1/namespaces/default/configmaps", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "free"}})
}

const conversionCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: converts.example.kgen.dev
spec:
  group: example.kgen.dev
  scope: Namespaced
  names: {plural: converts, singular: convert, kind: Convert, listKind: ConvertList}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`

func TestConversionsPointCRDsAtTheTestServer(t *testing.T) {
	withService := strings.Replace(strings.NewReplacer("converts", "shifts", "convert", "shift", "Convert", "Shift").Replace(conversionCRD),
		"  versions:", `  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {service: {namespace: system, name: webhook, path: /shift}}
  versions:`, 1)
	e := startEnv(t, Options{
		CRDs:     []any{[]byte(conversionCRD), []byte(withService)},
		Webhooks: WebhookOptions{Conversions: map[string]string{"converts.example.kgen.dev": "/convert"}},
	})
	serving := e.WebhookServing()
	c := newAPIClient(t, e.Config())
	for name, path := range map[string]string{"converts.example.kgen.dev": "/convert", "shifts.example.kgen.dev": "/shift"} {
		crd := c.must(200, "GET", crdsPath+"/"+name, nil)
		conversion := crd["spec"].(map[string]any)["conversion"].(map[string]any)
		webhook := conversion["webhook"].(map[string]any)
		config := webhook["clientConfig"].(map[string]any)
		if conversion["strategy"] != "Webhook" || config["url"] != serving.URL(path) || config["caBundle"] == nil || config["service"] != nil {
			t.Fatalf("CRD %s conversion %v, want the Webhook strategy at %s", name, conversion, serving.URL(path))
		}
	}
}

func TestWebhookOptionsErrorsNameWhatIsMissing(t *testing.T) {
	_, err := Start(context.Background(), Options{CRDs: []any{[]byte(conversionCRD)},
		Webhooks: WebhookOptions{Conversions: map[string]string{"gizmos.example.kgen.dev": "/convert"}}})
	want := `Options.Webhooks.Conversions names CRD "gizmos.example.kgen.dev", which is not among Options.CRDs (converts.example.kgen.dev)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	if err := env.InstallWebhookConfigurations(context.Background(), []byte(guardConfiguration)); err == nil || !strings.Contains(err.Error(), "set Options.Webhooks") {
		t.Fatalf("InstallWebhookConfigurations without Options.Webhooks: %v", err)
	}
	if err := env.WaitForWebhookServer(context.Background()); err == nil || !strings.Contains(err.Error(), "Options.Webhooks is not set") {
		t.Fatalf("WaitForWebhookServer without Options.Webhooks: %v", err)
	}

	e := startEnv(t, Options{Webhooks: WebhookOptions{Port: freePort(t)}})
	for _, tc := range []struct{ name, config, want string }{
		{"no path", strings.Replace(guardConfiguration, ", path: /guard", "", 1), `ValidatingWebhookConfiguration "guard", webhook "guard.example.kgen.dev": clientConfig.service has no path`},
		{"url without path", strings.Replace(guardConfiguration, "service: {namespace: system, name: webhook, path: /guard}", "url: https://example.com", 1), `clientConfig.url "https://example.com" has no path`},
		{"no client config", strings.Replace(guardConfiguration, "service: {namespace: system, name: webhook, path: /guard}", "{}", 1), "clientConfig names neither a service nor a url"},
		{"not a configuration", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n", `is a ConfigMap "cm", not a ValidatingWebhookConfiguration or MutatingWebhookConfiguration`},
		{"old version", strings.Replace(guardConfiguration, "admissionregistration.k8s.io/v1", "admissionregistration.k8s.io/v1beta1", 1), "testenv installs admissionregistration.k8s.io/v1"},
		{"empty", "---\n", "holds no ValidatingWebhookConfiguration or MutatingWebhookConfiguration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := e.InstallWebhookConfigurations(context.Background(), []byte(tc.config))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err = e.WaitForWebhookServer(ctx)
	if want := "no webhook server answers on " + e.WebhookServing().Addr(); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ports, err := freePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	return ports[0]
}
