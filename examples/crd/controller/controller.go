// Package controller reconciles CronTabs into the batch/v1 CronJobs that run them, in the style of
// k8s.io/sample-controller, on kgen's generated code and runtime: shared informers feed a rate-limited work
// queue; a worker applies the CronJob a CronTab owns and the CronTab's status with server-side apply
// (generated and built-in apply configurations) and records what it did as an Event.
package controller

import (
	"context"
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	batchv1ac "github.com/kgen-dev/kgen/builtin/applyconfigurations/batch/v1"
	corev1ac "github.com/kgen-dev/kgen/builtin/applyconfigurations/core/v1"
	batchinformers "github.com/kgen-dev/kgen/builtin/informers/batch/v1"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	batchlisters "github.com/kgen-dev/kgen/builtin/listers/batch/v1"
	metav1ac "github.com/kgen-dev/kgen/runtime/applyconfigurations/meta/v1"
	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/events"
	"github.com/kgen-dev/kgen/runtime/workqueue"

	stablev1 "example.com/crd/api/stable/v1"
	stablev1ac "example.com/crd/generated/applyconfiguration/stable/v1"
	"example.com/crd/generated/clientset/versioned"
	stableinformers "example.com/crd/generated/informers/externalversions/stable/v1"
	stablelisters "example.com/crd/generated/listers/stable/v1"
)

// FieldManager is the name under which the controller applies CronJobs and owns their fields.
const FieldManager = "crontab-controller"

// Event reasons and messages the controller records.
const (
	// SuccessSynced is the reason of the Event recorded when a CronTab's CronJob is in line with it.
	SuccessSynced = "Synced"
	// ErrResourceExists is the reason of the Event recorded when a CronJob of the CronTab's name exists
	// and another object controls it.
	ErrResourceExists = "ErrResourceExists"
	// MessageResourceExists is the message of an ErrResourceExists Event.
	MessageResourceExists = "CronJob %q already exists and is not managed by CronTab"
	// MessageResourceSynced is the message of a SuccessSynced Event.
	MessageResourceSynced = "CronTab synced successfully"
)

// Controller keeps every CronTab's CronJob in line with the CronTab's spec.
type Controller struct {
	kubeclientset  kubernetes.Interface
	crdclientset   versioned.Interface
	cronJobsLister batchlisters.CronJobLister
	cronJobsSynced cache.InformerSynced
	cronTabsLister stablelisters.CronTabLister
	cronTabsSynced cache.InformerSynced
	// workqueue holds the namespace/name keys of CronTabs to reconcile; a key that fails is retried with
	// per-item exponential backoff under an overall rate limit.
	workqueue workqueue.TypedRateLimitingInterface[string]
	recorder  events.EventRecorder
	// reconcile is syncHandler, possibly wrapped by GuardReconcile.
	reconcile func(ctx context.Context, key string) error
}

// NewController returns a controller over the two informers; recorder receives its Events (in a real
// process one from an events.EventBroadcaster writing to the API server).
func NewController(ctx context.Context, kubeclientset kubernetes.Interface, crdclientset versioned.Interface,
	cronJobInformer batchinformers.CronJobInformer, cronTabInformer stableinformers.CronTabInformer,
	recorder events.EventRecorder) (*Controller, error) {
	logger := klog.FromContext(ctx)
	c := &Controller{
		kubeclientset:  kubeclientset,
		crdclientset:   crdclientset,
		cronJobsLister: cronJobInformer.Lister(),
		cronJobsSynced: cronJobInformer.Informer().HasSynced,
		cronTabsLister: cronTabInformer.Lister(),
		cronTabsSynced: cronTabInformer.Informer().HasSynced,
		workqueue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "CronTabs"}),
		recorder: recorder,
	}
	c.reconcile = c.syncHandler
	logger.Info("Setting up event handlers")
	if _, err := cronTabInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueueCronTab,
		UpdateFunc: func(_, obj any) { c.enqueueCronTab(obj) },
	}); err != nil {
		return nil, err
	}
	// A change to a CronJob a CronTab controls re-queues that CronTab, so edits by others are undone.
	if _, err := cronJobInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.handleObject,
		UpdateFunc: func(old, obj any) {
			if old.(*batchv1.CronJob).ResourceVersion != obj.(*batchv1.CronJob).ResourceVersion {
				c.handleObject(obj)
			}
		},
		DeleteFunc: c.handleObject,
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Run waits for the caches to sync, then reconciles with workers goroutines until ctx ends, and shuts the
// queue down.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrash()
	defer c.workqueue.ShutDown()
	logger := klog.FromContext(ctx)
	logger.Info("Starting CronTab controller")
	if !cache.WaitForCacheSync(ctx.Done(), c.cronJobsSynced, c.cronTabsSynced) {
		return fmt.Errorf("failed to wait for caches to sync")
	}
	logger.Info("Starting workers", "count", workers)
	for range workers {
		go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	}
	<-ctx.Done()
	logger.Info("Shutting down workers")
	return nil
}

// GuardReconcile wraps the reconcile of every key, for example with a sharding replica's Reconciler so
// that the controller reconciles only the CronTabs assigned to it; call it before Run.
func (c *Controller) GuardReconcile(guard func(reconcile func(ctx context.Context, key string) error) func(ctx context.Context, key string) error) {
	c.reconcile = guard(c.reconcile)
}

// WorkQueue is the queue of CronTab keys the workers take from, for a guard that requeues keys it
// could not run yet (a sharding replica's Reconciler).
func (c *Controller) WorkQueue() workqueue.TypedRateLimitingInterface[string] { return c.workqueue }

// CronTabsGetByKey reads a CronTab from the controller's cache by namespace/name key.
func (c *Controller) CronTabsGetByKey(key string) (any, bool, error) {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil, false, err
	}
	cronTab, err := c.cronTabsLister.CronTabs(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return nil, false, nil
	}
	return cronTab, err == nil, err
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

// processNextWorkItem reconciles one key; it reports false once the queue is shut down.
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	defer c.workqueue.Done(key)
	if err := c.reconcile(ctx, key); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; requeuing for later retry", "key", key)
		c.workqueue.AddRateLimited(key)
		return true
	}
	c.workqueue.Forget(key)
	return true
}

// syncHandler brings the CronJob of the CronTab named by key in line with the CronTab and records the
// outcome in its status.
func (c *Controller) syncHandler(ctx context.Context, key string) error {
	logger := klog.LoggerWithValues(klog.FromContext(ctx), "cronTab", key)
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Invalid resource key", "key", key)
		return nil
	}
	cronTab, err := c.cronTabsLister.CronTabs(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		// Deleted: its CronJob goes with it through the owner reference.
		logger.V(4).Info("CronTab no longer exists")
		return nil
	}
	if err != nil {
		return err
	}

	cronJob, err := c.cronJobsLister.CronJobs(namespace).Get(cronTab.Name)
	switch {
	case apierrors.IsNotFound(err):
		cronJob = nil
	case err != nil:
		return err
	case !metav1.IsControlledBy(cronJob, cronTab):
		msg := fmt.Sprintf(MessageResourceExists, cronJob.Name)
		c.recorder.Event(cronTab, corev1.EventTypeWarning, ErrResourceExists, msg)
		return fmt.Errorf("%s", msg)
	}
	if cronJob == nil || !upToDate(cronJob, cronTab) {
		if cronJob, err = c.applyCronJob(ctx, cronTab); err != nil {
			return err
		}
		logger.Info("Applied CronJob", "cronJob", klog.KObj(cronJob), "schedule", cronJob.Spec.Schedule)
	}
	if err := c.updateCronTabStatus(ctx, cronTab, cronJob); err != nil {
		return err
	}
	c.recorder.Event(cronTab, corev1.EventTypeNormal, SuccessSynced, MessageResourceSynced)
	return nil
}

// upToDate reports whether cronJob already runs what cronTab asks for.
func upToDate(cronJob *batchv1.CronJob, cronTab *stablev1.CronTab) bool {
	containers := cronJob.Spec.JobTemplate.Spec.Template.Spec.Containers
	parallelism := cronJob.Spec.JobTemplate.Spec.Parallelism
	return cronJob.Spec.Schedule == cronTab.Spec.CronSpec &&
		len(containers) == 1 && containers[0].Image == cronTab.Spec.Image &&
		parallelism != nil && *parallelism == replicas(cronTab)
}

func replicas(cronTab *stablev1.CronTab) int32 { return max(cronTab.Spec.Replicas, 1) }

// applyCronJob applies the CronJob cronTab owns with server-side apply: the configuration names only the
// fields the controller manages, and the API server merges them and records the controller as their owner.
func (c *Controller) applyCronJob(ctx context.Context, cronTab *stablev1.CronTab) (*batchv1.CronJob, error) {
	return c.kubeclientset.BatchV1().CronJobs(cronTab.Namespace).Apply(ctx, desiredCronJob(cronTab),
		metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
}

// desiredCronJob is the apply configuration of cronTab's CronJob: only the fields the controller sets.
func desiredCronJob(cronTab *stablev1.CronTab) *batchv1ac.CronJobApplyConfiguration {
	return batchv1ac.CronJob(cronTab.Name, cronTab.Namespace).
		WithLabels(map[string]string{"app.kubernetes.io/managed-by": FieldManager, "crontab": cronTab.Name}).
		WithOwnerReferences(metav1ac.OwnerReference().
			WithAPIVersion(stablev1.SchemeGroupVersion.String()).WithKind("CronTab").
			WithName(cronTab.Name).WithUID(cronTab.UID).
			WithController(true).WithBlockOwnerDeletion(true)).
		WithSpec(batchv1ac.CronJobSpec().
			WithSchedule(cronTab.Spec.CronSpec).
			WithJobTemplate(batchv1ac.JobTemplateSpec().WithSpec(batchv1ac.JobSpec().
				WithParallelism(replicas(cronTab)).
				WithTemplate(corev1ac.PodTemplateSpec().WithSpec(corev1ac.PodSpec().
					WithRestartPolicy(corev1.RestartPolicyOnFailure).
					WithContainers(corev1ac.Container().WithName("crontab").WithImage(cronTab.Spec.Image)))))))
}

// updateCronTabStatus records which CronJob runs cronTab and the generation it reflects, applying only
// the status fields the controller owns.
func (c *Controller) updateCronTabStatus(ctx context.Context, cronTab *stablev1.CronTab, cronJob *batchv1.CronJob) error {
	if cronTab.Status.CronJobName == cronJob.Name && cronTab.Status.ObservedGeneration == cronTab.Generation {
		return nil
	}
	status := stablev1ac.CronTab(cronTab.Name, cronTab.Namespace).WithStatus(stablev1ac.CronTabStatus().
		WithCronJobName(cronJob.Name).
		WithObservedGeneration(cronTab.Generation))
	_, err := c.crdclientset.StableV1().CronTabs(cronTab.Namespace).ApplyStatus(ctx, status,
		metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	return err
}

// enqueueCronTab queues the key of a CronTab.
func (c *Controller) enqueueCronTab(obj any) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.workqueue.Add(key)
}

// handleObject queues the CronTab that controls obj, if any; obj may be a tombstone of a deleted object.
func (c *Controller) handleObject(obj any) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	object, ok := obj.(metav1.Object)
	if !ok {
		utilruntime.HandleError(fmt.Errorf("error decoding object, invalid type %T", obj))
		return
	}
	ref := metav1.GetControllerOf(object)
	if ref == nil || ref.Kind != "CronTab" || ref.APIVersion != stablev1.SchemeGroupVersion.String() {
		return
	}
	cronTab, err := c.cronTabsLister.CronTabs(object.GetNamespace()).Get(ref.Name)
	if err != nil || cronTab.UID != ref.UID {
		return // an orphan, or the owner of another incarnation
	}
	c.enqueueCronTab(cronTab)
}
