// Package app wires the CronTab controller into a process: clientsets and shared informers from one REST
// config, an event broadcaster writing to the API server, and optional leader election on a Lease.
package app

import (
	"context"
	"fmt"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	kubeinformers "github.com/kgen-dev/kgen/builtin/informers"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	kubescheme "github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
	"github.com/kgen-dev/kgen/runtime/events"
	"github.com/kgen-dev/kgen/runtime/leaderelection"
	"github.com/kgen-dev/kgen/runtime/leaderelection/resourcelock"
	"github.com/kgen-dev/kgen/runtime/rest"

	"example.com/crd/controller"
	"example.com/crd/generated/clientset/versioned"
	crdscheme "example.com/crd/generated/clientset/versioned/scheme"
	"example.com/crd/generated/informers/externalversions"
)

// Options configure Run.
type Options struct {
	// Workers is how many CronTabs are reconciled at once; zero means 2.
	Workers int
	// LeaderElection, when set, runs the controller only while this process holds the Lease
	// LeaderElectionNamespace/"crontab-controller".
	LeaderElection bool
	// LeaderElectionNamespace is the namespace of the Lease; empty means "default".
	LeaderElectionNamespace string
	// Identity names this candidate in the Lease; empty means the host name.
	Identity string
}

func init() {
	// Events about CronTabs need their kind in the scheme the recorder resolves objects with.
	utilruntime.Must(crdscheme.AddToScheme(kubescheme.Scheme))
}

// Run runs the controller against the API server config points at until ctx ends.
func Run(ctx context.Context, config *rest.Config, opts Options) error {
	logger := klog.FromContext(ctx)
	kubeClient, err := kubernetes.NewForConfig(config)
	if err != nil {
		return fmt.Errorf("building kubernetes clientset: %w", err)
	}
	crdClient, err := versioned.NewForConfig(config)
	if err != nil {
		return fmt.Errorf("building CronTab clientset: %w", err)
	}
	sink, err := events.NewEventSinkForConfig(config)
	if err != nil {
		return err
	}
	broadcaster := events.NewBroadcaster(events.WithContext(ctx))
	defer broadcaster.Shutdown()
	broadcaster.StartStructuredLogging(0)
	broadcaster.StartRecordingToSink(sink)
	recorder := broadcaster.NewRecorder(kubescheme.Scheme, corev1.EventSource{Component: controller.FieldManager})

	run := func(ctx context.Context) error {
		kubeInformerFactory := kubeinformers.NewSharedInformerFactory(kubeClient, 10*time.Minute)
		crdInformerFactory := externalversions.NewSharedInformerFactory(crdClient, 10*time.Minute)
		defer kubeInformerFactory.Shutdown()
		defer crdInformerFactory.Shutdown()
		c, err := controller.NewController(ctx, kubeClient, crdClient,
			kubeInformerFactory.Batch().V1().CronJobs(), crdInformerFactory.Stable().V1().CronTabs(), recorder)
		if err != nil {
			return err
		}
		kubeInformerFactory.Start(ctx.Done())
		crdInformerFactory.Start(ctx.Done())
		workers := opts.Workers
		if workers == 0 {
			workers = 2
		}
		return c.Run(ctx, workers)
	}
	if !opts.LeaderElection {
		return run(ctx)
	}

	identity := opts.Identity
	if identity == "" {
		if identity, err = os.Hostname(); err != nil {
			return err
		}
	}
	namespace := opts.LeaderElectionNamespace
	if namespace == "" {
		namespace = "default"
	}
	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, namespace, controller.FieldManager,
		kubeClient.CoordinationV1().Leases(namespace), resourcelock.ResourceLockConfig{Identity: identity, EventRecorder: recorder})
	if err != nil {
		return err
	}
	var runErr error
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   15 * time.Second,
		RenewDeadline:   10 * time.Second,
		RetryPeriod:     2 * time.Second,
		ReleaseOnCancel: true,
		Name:            controller.FieldManager,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { runErr = run(ctx) },
			OnStoppedLeading: func() { logger.Info("Stopped leading", "identity", identity) },
			OnNewLeader:      func(leader string) { logger.Info("New leader elected", "leader", leader) },
		},
	})
	return runErr
}
