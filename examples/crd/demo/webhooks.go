package demo

import (
	"context"
	"fmt"

	"github.com/kgen-dev/kgen/runtime/webhook"
	"github.com/kgen-dev/kgen/testenv"

	"example.com/crd/webhooks"
)

// ServeWebhooks starts the CronTab webhook server on the address and certificate env gave the API server
// and returns once the API server can reach it. The server stops when ctx is done; the returned channel
// then receives what it returned.
func ServeWebhooks(ctx context.Context, env *testenv.Environment) (<-chan error, error) {
	s := env.WebhookServing()
	srv, err := webhooks.NewServer(webhook.Options{Addr: s.Addr(), CertDir: s.CertDir, CertName: s.CertName, KeyName: s.KeyName})
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- srv.Start(ctx) }()
	if err := env.WaitForWebhookServer(ctx); err != nil {
		return nil, fmt.Errorf("webhook server: %w", err)
	}
	return done, nil
}

// TestenvOptions are the options the walk-through's environment needs: the CRD (whose conversion
// webhook testenv points at the local server) and the admission webhook configurations, from dir (the
// example module's root).
func TestenvOptions(dir string) testenv.Options {
	return testenv.Options{
		CRDs:     []any{dir + "/config/crd"},
		Webhooks: testenv.WebhookOptions{Configurations: []any{dir + "/config/webhook"}},
	}
}
