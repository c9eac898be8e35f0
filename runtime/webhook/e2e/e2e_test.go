package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/webhook"
	"github.com/kgen-dev/kgen/runtime/webhook/internal/widgets"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{
		CRDs: []any{"testdata/crds.yaml"},
		Webhooks: testenv.WebhookOptions{
			Conversions: map[string]string{
				"widgets.widgets.webhook.kgen.dev": "/convert",
				"gadgets.widgets.webhook.kgen.dev": "/convert",
			},
			Configurations: []any{"testdata/webhooks.yaml"},
		},
	}, &env))
}

// server is the test's webhook server, serving on the address testenv gave the API server.
type server struct {
	cancel context.CancelFunc
	done   chan error
}

// slowValidation makes the validating webhook wait until the API server gives up on it.
var slowValidation atomic.Bool

// validateWidget refuses more than ten replicas.
func validateWidget(ctx context.Context, req webhook.Request[*widgets.Widget]) (webhook.Warnings, error) {
	if slowValidation.Load() {
		<-ctx.Done() // the API server closes the connection at its timeout
		return nil, ctx.Err()
	}
	if r := req.Object.Spec.Replicas; r != nil && *r > 10 {
		return nil, errors.New("spec.replicas: at most 10")
	}
	return nil, nil
}

// serve starts the webhook server and stops it when the test ends.
func serve(t *testing.T) *server {
	t.Helper()
	serving := env.WebhookServing()
	srv, err := webhook.NewServer(webhook.Options{CertDir: serving.CertDir, CertName: serving.CertName, KeyName: serving.KeyName})
	if err != nil {
		t.Fatal(err)
	}
	scheme := widgets.NewScheme()
	for path, h := range map[string]http.Handler{
		"/convert":         webhook.NewConversion(scheme),
		"/default-widget":  webhook.Defaulting[widgets.Widget](scheme),
		"/validate-widget": webhook.Validating(validateWidget),
	} {
		if err := srv.Register(path, h); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", serving.Addr())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{cancel: cancel, done: make(chan error, 1)}
	go func() { s.done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() { s.stop(t) })
	if err := env.WaitForWebhookServer(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// stop shuts the server down; later calls do nothing.
func (s *server) stop(t *testing.T) {
	t.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	if err := <-s.done; err != nil {
		t.Errorf("webhook server: %v", err)
	}
}

func client(t *testing.T) *dynamic.DynamicClient {
	t.Helper()
	c, err := dynamic.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newNamespace creates a namespace of the test's own, so that reruns (-count) and other tests do not
// collide.
func newNamespace(t *testing.T) string {
	t.Helper()
	ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"generateName": "webhook-e2e-"}}}
	created, err := client(t).Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).Create(context.Background(), ns, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return created.GetName()
}

func resource(gv schema.GroupVersion, plural string) schema.GroupVersionResource {
	return gv.WithResource(plural)
}

// toUnstructured encodes a typed object.
func toUnstructured(t *testing.T, obj runtime.Object) *unstructured.Unstructured {
	t.Helper()
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		t.Fatal(err)
	}
	return u
}

// fromUnstructured decodes into a typed object.
func fromUnstructured(t *testing.T, u *unstructured.Unstructured, into runtime.Object) {
	t.Helper()
	data, err := u.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatal(err)
	}
}
