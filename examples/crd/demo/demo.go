// Package demo is the example's walk-through: against a running API server it starts the CronTab
// controller, drives it through the life of a CronTab and prints what happens. Every step checks what it
// prints, so the same walk-through serves as the example's end-to-end test.
package demo

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/go-logr/logr"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/rest"

	stablev1 "example.com/crd/api/stable/v1"
	stablev1beta1 "example.com/crd/api/stable/v1beta1"
	"example.com/crd/app"
	"example.com/crd/controller"
	"example.com/crd/generated/clientset/versioned"
)

// Namespace is where the walk-through creates its objects.
const Namespace = "default"

const timeout = 30 * time.Second

// Run starts the controller against config's API server (with its logs going to logger), walks a CronTab
// through creation, a spec change, an outside edit of its CronJob and a name conflict, then writes one as
// v1beta1 and reads it as v1 and has a bad one refused, printing each step to out, and stops the
// controller. The API server must reach the example's webhooks (ServeWebhooks). It fails as soon as the cluster does not reach a state it expects.
func Run(ctx context.Context, config *rest.Config, logger logr.Logger, out io.Writer) error {
	kube, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	crd, err := versioned.NewForConfig(config)
	if err != nil {
		return err
	}
	ctrlCtx, stop := context.WithCancel(klog.NewContext(ctx, logger))
	done := make(chan error, 1)
	go func() { done <- app.Run(ctrlCtx, config, app.Options{Workers: 2}) }()
	defer func() { stop(); <-done }()
	fmt.Fprintf(out, "controller %q started (2 workers, rate-limited work queue, shared informers)\n", controller.FieldManager)

	w := walk{kube: kube, crd: crd, out: out}
	return w.run(ctx)
}

type walk struct {
	kube kubernetes.Interface
	crd  versioned.Interface
	out  io.Writer
}

func (w walk) say(format string, args ...any) { fmt.Fprintf(w.out, format+"\n", args...) }

func (w walk) run(ctx context.Context) error {
	cronTabs := w.crd.StableV1().CronTabs(Namespace)
	cronJobs := w.kube.BatchV1().CronJobs(Namespace)

	// 1. A new CronTab gets its CronJob, applied server-side, and a status naming it.
	created, err := cronTabs.Create(ctx, &stablev1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: "backup"},
		Spec:       stablev1.CronTabSpec{CronSpec: "*/5 * * * *", Image: "backup:1", Replicas: 2},
	}, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	w.say("created CronTab %s/%s: cronSpec %q, image %q, replicas %d", Namespace, created.Name,
		created.Spec.CronSpec, created.Spec.Image, created.Spec.Replicas)
	job, err := w.waitForCronJob(ctx, "backup", "*/5 * * * *", "backup:1")
	if err != nil {
		return err
	}
	w.say("  -> CronJob %s/%s applied: schedule %q, image %q, parallelism %d, controlled by CronTab %s, fields owned by %s",
		Namespace, job.Name, job.Spec.Schedule, image(job), *job.Spec.JobTemplate.Spec.Parallelism,
		metav1.GetControllerOf(job).Name, managers(job))
	status, err := w.waitForStatus(ctx, "backup")
	if err != nil {
		return err
	}
	w.say("  -> CronTab status: cronJobName %q, observedGeneration %d", status.CronJobName, status.ObservedGeneration)

	// 2. A spec change is carried over.
	latest, err := cronTabs.Get(ctx, "backup", metav1.GetOptions{})
	if err != nil {
		return err
	}
	latest.Spec.Image = "backup:2"
	if _, err := cronTabs.Update(ctx, latest, metav1.UpdateOptions{}); err != nil {
		return err
	}
	w.say("updated CronTab %s/backup: image %q", Namespace, "backup:2")
	if job, err = w.waitForCronJob(ctx, "backup", "*/5 * * * *", "backup:2"); err != nil {
		return err
	}
	w.say("  -> CronJob %s/%s re-applied: image %q", Namespace, job.Name, image(job))

	// 3. An edit by someone else to a field the controller owns is undone.
	job.Spec.Schedule = "@hourly"
	if _, err := cronJobs.Update(ctx, job, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		return err
	}
	w.say("kubectl-edit changed CronJob %s/backup: schedule %q", Namespace, "@hourly")
	if job, err = w.waitForCronJob(ctx, "backup", "*/5 * * * *", "backup:2"); err != nil {
		return err
	}
	w.say("  -> CronJob %s/%s restored: schedule %q (the controller's apply forces its fields back)", Namespace, job.Name, job.Spec.Schedule)

	// 4. A CronJob of the same name that the CronTab does not control is left alone, with a warning.
	if _, err := cronJobs.Create(ctx, &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: "report"},
		Spec: batchv1.CronJobSpec{Schedule: "@daily", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyOnFailure,
				Containers:    []corev1.Container{{Name: "report", Image: "report:1"}},
			}},
		}}},
	}, metav1.CreateOptions{}); err != nil {
		return err
	}
	if _, err := cronTabs.Create(ctx, &stablev1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: "report"},
		Spec:       stablev1.CronTabSpec{CronSpec: "0 6 * * *", Image: "report:2"},
	}, metav1.CreateOptions{}); err != nil {
		return err
	}
	w.say("created CronJob %s/report by hand, then CronTab %s/report", Namespace, Namespace)
	warning, err := w.waitForEvent(ctx, "report", controller.ErrResourceExists)
	if err != nil {
		return err
	}
	w.say("  -> Event %s %s on CronTab report: %s", warning.Type, warning.Reason, warning.Message)
	if job, err = cronJobs.Get(ctx, "report", metav1.GetOptions{}); err != nil {
		return err
	}
	if image(job) != "report:1" {
		return fmt.Errorf("the controller changed CronJob report, which it does not control: image %q", image(job))
	}
	w.say("  -> CronJob %s/report untouched: image %q", Namespace, image(job))

	// 5. The Events recorded for the first CronTab.
	synced, err := w.waitForEvent(ctx, "backup", controller.SuccessSynced)
	if err != nil {
		return err
	}
	w.say("Event %s %s on CronTab backup: %q (count %d)", synced.Type, synced.Reason, synced.Message, synced.Count)
	return w.runWebhooks(ctx)
}

// runWebhooks shows the webhooks: a CronTab written as v1beta1 and read as v1 through the conversion
// webhook, the default the mutating webhook applies, and a CronTab the validating webhook refuses.
func (w walk) runWebhooks(ctx context.Context) error {
	// 6. Written as v1beta1 (spec.schedule), stored as v1 (spec.cronSpec), read in both.
	written := &stablev1beta1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: "nightly", Labels: map[string]string{"team": "ops"}},
		Spec:       stablev1beta1.CronTabSpec{Schedule: "0 2 * * *", Image: "nightly:1"},
	}
	if _, err := w.crd.StableV1beta1().CronTabs(Namespace).Create(ctx, written, metav1.CreateOptions{}); err != nil {
		return err
	}
	w.say("created CronTab %s/nightly as v1beta1: schedule %q, image %q, no replicas", Namespace, written.Spec.Schedule, written.Spec.Image)
	asV1, err := w.crd.StableV1().CronTabs(Namespace).Get(ctx, "nightly", metav1.GetOptions{})
	if err != nil {
		return err
	}
	if asV1.Spec.CronSpec != written.Spec.Schedule || asV1.Spec.Image != written.Spec.Image || asV1.Labels["team"] != "ops" {
		return fmt.Errorf("CronTab nightly read as v1 lost what was written as v1beta1: %+v, labels %v", asV1.Spec, asV1.Labels)
	}
	w.say("  -> read as v1 (the conversion webhook): cronSpec %q, image %q, labels %v", asV1.Spec.CronSpec, asV1.Spec.Image, asV1.Labels)
	if asV1.Spec.Replicas != 1 {
		return fmt.Errorf("CronTab nightly: replicas %d, want the mutating webhook's default 1", asV1.Spec.Replicas)
	}
	w.say("  -> replicas %d: the default the mutating webhook applied (SetDefaults_CronTabSpec)", asV1.Spec.Replicas)
	asV1beta1, err := w.crd.StableV1beta1().CronTabs(Namespace).Get(ctx, "nightly", metav1.GetOptions{})
	if err != nil {
		return err
	}
	if asV1beta1.Spec.Schedule != written.Spec.Schedule || asV1beta1.Spec.Image != written.Spec.Image {
		return fmt.Errorf("CronTab nightly read back as v1beta1 differs from what was written: %+v", asV1beta1.Spec)
	}
	w.say("  -> read back as v1beta1: schedule %q, image %q, replicas %d", asV1beta1.Spec.Schedule, asV1beta1.Spec.Image, asV1beta1.Spec.Replicas)
	job, err := w.waitForCronJob(ctx, "nightly", "0 2 * * *", "nightly:1")
	if err != nil {
		return err
	}
	w.say("  -> CronJob %s/%s applied: schedule %q, parallelism %d", Namespace, job.Name, job.Spec.Schedule, *job.Spec.JobTemplate.Spec.Parallelism)

	// 7. A schedule that is not one is refused by the validating webhook.
	_, err = w.crd.StableV1().CronTabs(Namespace).Create(ctx, &stablev1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: "sometimes"},
		Spec:       stablev1.CronTabSpec{CronSpec: "now and then", Image: "sometimes:1"},
	}, metav1.CreateOptions{})
	if err == nil {
		return fmt.Errorf("CronTab sometimes with cronSpec %q was accepted", "now and then")
	}
	if !apierrors.IsInvalid(err) {
		return fmt.Errorf("CronTab sometimes: want the validating webhook's Invalid answer, got %w", err)
	}
	w.say("created CronTab %s/sometimes with cronSpec %q: refused: %v", Namespace, "now and then", err)
	return nil
}

// waitForCronJob waits until CronJob name runs image on schedule.
func (w walk) waitForCronJob(ctx context.Context, name, schedule, img string) (*batchv1.CronJob, error) {
	var job *batchv1.CronJob
	err := poll(ctx, func(ctx context.Context) (bool, error) {
		got, err := w.kube.BatchV1().CronJobs(Namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		job = got
		return got.Spec.Schedule == schedule && image(got) == img, nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for CronJob %s/%s with schedule %q and image %q: %w (last seen: %v)", Namespace, name, schedule, img, err, describe(job))
	}
	return job, nil
}

// waitForStatus waits until CronTab name's status reflects its current generation.
func (w walk) waitForStatus(ctx context.Context, name string) (stablev1.CronTabStatus, error) {
	var status stablev1.CronTabStatus
	err := poll(ctx, func(ctx context.Context) (bool, error) {
		got, err := w.crd.StableV1().CronTabs(Namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		status = got.Status
		return got.Status.CronJobName == name && got.Status.ObservedGeneration == got.Generation, nil
	})
	if err != nil {
		return status, fmt.Errorf("waiting for the status of CronTab %s/%s: %w (last seen: %+v)", Namespace, name, err, status)
	}
	return status, nil
}

// waitForEvent waits for an Event with reason about the CronTab name.
func (w walk) waitForEvent(ctx context.Context, name, reason string) (*corev1.Event, error) {
	var found *corev1.Event
	selector := fields.Set{"involvedObject.kind": "CronTab", "involvedObject.name": name, "reason": reason}.String()
	err := poll(ctx, func(ctx context.Context) (bool, error) {
		list, err := w.kube.CoreV1().Events(Namespace).List(ctx, metav1.ListOptions{FieldSelector: selector})
		if err != nil {
			return false, err
		}
		if len(list.Items) > 0 {
			found = &list.Items[0]
		}
		return found != nil, nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for a %s Event on CronTab %s/%s: %w", reason, Namespace, name, err)
	}
	return found, nil
}

func poll(ctx context.Context, condition wait.ConditionWithContextFunc) error {
	return wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, timeout, true, condition)
}

func image(job *batchv1.CronJob) string {
	if c := job.Spec.JobTemplate.Spec.Template.Spec.Containers; len(c) > 0 {
		return c[0].Image
	}
	return ""
}

// managers lists the field managers of job with their operations.
func managers(job *batchv1.CronJob) []string {
	var names []string
	for _, m := range job.ManagedFields {
		names = append(names, fmt.Sprintf("%s (%s)", m.Manager, m.Operation))
	}
	return names
}

func describe(job *batchv1.CronJob) string {
	if job == nil {
		return "none"
	}
	return fmt.Sprintf("schedule %q, image %q", job.Spec.Schedule, image(job))
}
