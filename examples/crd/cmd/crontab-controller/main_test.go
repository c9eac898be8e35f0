package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/webhook"
	"github.com/kgen-dev/kgen/testenv"

	stablev1beta1 "example.com/crd/api/stable/v1beta1"
	"example.com/crd/app"
	"example.com/crd/generated/clientset/versioned"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{
		CRDs:     []any{"../../config/crd"},
		Webhooks: testenv.WebhookOptions{Configurations: []any{"../../config/webhook"}},
	}, &env))
}

// TestRunServesWebhooks runs the command's controller and webhook server together: a CronTab created as
// v1beta1 (converted and defaulted by the webhooks) gets its CronJob, and both stop when the context ends.
func TestRunServesWebhooks(t *testing.T) {
	s := env.WebhookServing()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, env.Config(), app.Options{Workers: 1},
			webhook.Options{Addr: s.Addr(), CertDir: s.CertDir, CertName: s.CertName, KeyName: s.KeyName})
	}()
	if err := env.WaitForWebhookServer(ctx); err != nil {
		t.Fatal(err)
	}
	crd, err := versioned.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	kube, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := crd.StableV1beta1().CronTabs("default").Create(ctx, &stablev1beta1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: "weekly"},
		Spec:       stablev1beta1.CronTabSpec{Schedule: "@weekly", Image: "weekly:1"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		job, err := kube.BatchV1().CronJobs("default").Get(ctx, "weekly", metav1.GetOptions{})
		return err == nil && job.Spec.Schedule == "@weekly" && *job.Spec.JobTemplate.Spec.Parallelism == 1, nil
	})
	if err != nil {
		t.Fatalf("no CronJob weekly with schedule @weekly and parallelism 1: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}

// TestRunFailsWithoutCertificate stops at once, naming the file, when the webhook server has no
// certificate to serve.
func TestRunFailsWithoutCertificate(t *testing.T) {
	dir := t.TempDir()
	err := run(context.Background(), env.Config(), app.Options{Workers: 1}, webhook.Options{Addr: "127.0.0.1:0", CertDir: dir})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "tls.crt")) {
		t.Fatalf("run without a certificate: got %v, want an error naming %s", err, filepath.Join(dir, "tls.crt"))
	}
}
