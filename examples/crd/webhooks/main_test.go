package webhooks_test

import (
	"context"
	"os"
	"testing"

	"github.com/kgen-dev/kgen/runtime/webhook"
	"github.com/kgen-dev/kgen/testenv"

	"example.com/crd/generated/clientset/versioned"
	"example.com/crd/webhooks"
)

var env *testenv.Environment

// TestMain runs a real kube-apiserver with the example's CRD (whose conversion webhook testenv points at
// the test process) and its admission webhook configurations.
func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{
		CRDs:     []any{"../config/crd"},
		Webhooks: testenv.WebhookOptions{Configurations: []any{"../config/webhook"}},
	}, &env))
}

// serve starts the example's webhook server for the test and returns a clientset.
func serve(t *testing.T) versioned.Interface {
	t.Helper()
	s := env.WebhookServing()
	srv, err := webhooks.NewServer(webhook.Options{Addr: s.Addr(), CertDir: s.CertDir, CertName: s.CertName, KeyName: s.KeyName})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("webhook server: %v", err)
		}
	})
	if err := env.WaitForWebhookServer(ctx); err != nil {
		t.Fatal(err)
	}
	cs, err := versioned.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}
