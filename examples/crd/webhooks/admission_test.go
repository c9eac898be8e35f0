package webhooks_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/builtin/kubernetes"

	stablev1 "example.com/crd/api/stable/v1"
	stablev1beta1 "example.com/crd/api/stable/v1beta1"
	"example.com/crd/generated/clientset/versioned"
)

// newNamespace creates a namespace of the test's own, so that reruns (-count) do not collide.
func newNamespace(t *testing.T, _ versioned.Interface) string {
	t.Helper()
	kube, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	ns, err := kube.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "crontab-webhooks-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

// TestAdmissionThroughAPIServer sees the defaulting and validating webhooks' decisions through the real
// API server, for objects written in either version (v1beta1 ones reach the v1 webhooks converted).
func TestAdmissionThroughAPIServer(t *testing.T) {
	cs := serve(t)
	ctx := context.Background()
	ns := newNamespace(t, cs)

	created, err := cs.StableV1().CronTabs(ns).Create(ctx, &stablev1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: "defaulted"},
		Spec:       stablev1.CronTabSpec{CronSpec: "@daily", Image: "a:1"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.Spec.Replicas != 1 {
		t.Errorf("created without replicas: replicas %d, want the default 1", created.Spec.Replicas)
	}
	kept, err := cs.StableV1beta1().CronTabs(ns).Create(ctx, &stablev1beta1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: "three"},
		Spec:       stablev1beta1.CronTabSpec{Schedule: "@daily", Image: "a:1", Replicas: 3},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if kept.Spec.Replicas != 3 {
		t.Errorf("created as v1beta1 with replicas 3: got %d", kept.Spec.Replicas)
	}

	for _, c := range []struct {
		name, schedule, want string
		create               func(name, schedule string) error
	}{
		{"bad-v1", "now and then", `spec.cronSpec: Invalid value: "now and then": 3 fields, want 5`, func(name, schedule string) error {
			_, err := cs.StableV1().CronTabs(ns).Create(ctx, &stablev1.CronTab{ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: stablev1.CronTabSpec{CronSpec: schedule, Image: "a:1"}}, metav1.CreateOptions{})
			return err
		}},
		{"bad-v1beta1", "@sometimes", `spec.cronSpec: Invalid value: "@sometimes": not a schedule macro`, func(name, schedule string) error {
			_, err := cs.StableV1beta1().CronTabs(ns).Create(ctx, &stablev1beta1.CronTab{ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: stablev1beta1.CronTabSpec{Schedule: schedule, Image: "a:1"}}, metav1.CreateOptions{})
			return err
		}},
	} {
		err := c.create(c.name, c.schedule)
		if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), `admission webhook "vcrontab-v1.stable.example.com" denied the request`) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with schedule %q: got %v, want the validating webhook's Invalid with %q", c.name, c.schedule, err, c.want)
		}
	}

	// An update is validated too.
	created.Spec.CronSpec = "* *"
	if _, err := cs.StableV1().CronTabs(ns).Update(ctx, created, metav1.UpdateOptions{}); !apierrors.IsInvalid(err) {
		t.Errorf("update to schedule %q: got %v, want Invalid", created.Spec.CronSpec, err)
	}
}
