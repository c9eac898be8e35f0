// Package app wires the CronTab controller into a process: clientsets and shared informers from one REST
// config, an event broadcaster writing to the API server, and optional leader election on a Lease or
// sharding among replicas.
package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	kubeinformers "github.com/kgen-dev/kgen/builtin/informers"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	kubescheme "github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
	"github.com/kgen-dev/kgen/runtime/events"
	"github.com/kgen-dev/kgen/runtime/leaderelection"
	"github.com/kgen-dev/kgen/runtime/leaderelection/resourcelock"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/runtime/sharding"

	stablev1 "example.com/crd/api/stable/v1"
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
	// ShardRing, when set, shares the CronTabs (and their CronJobs) among every replica started with
	// the same ring name instead of electing one leader: each caches and reconciles only its share.
	// The ring's Leases live in LeaderElectionNamespace.
	ShardRing string
	// ShardMode chooses how the ring shares: "labels" (the default) labels each CronTab with its
	// replica; "server" uses the API server's sharded list and watch (ShardedListAndWatch), with no
	// writes to the CronTabs; "auto" uses the server's if it offers it, labels otherwise.
	ShardMode string
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
	var replica *sharding.Replica
	if opts.ShardRing != "" {
		if replica, kubeClient, crdClient, err = shardReplica(ctx, config, opts, identity, namespace); err != nil {
			return err
		}
	}

	run := func(ctx context.Context) error {
		kubeInformerFactory := kubeinformers.NewSharedInformerFactory(kubeClient, 10*time.Minute)
		crdInformerFactory := externalversions.NewSharedInformerFactory(crdClient, 10*time.Minute)
		defer kubeInformerFactory.Shutdown()
		defer crdInformerFactory.Shutdown()
		if replica != nil {
			// One call per informer in either mode: the CronTabs' informer holds this replica's
			// share; the CronJobs' follows their CronTabs where the mode places them together.
			if err := replica.Shard(crdInformerFactory.Stable().V1().CronTabs().Informer()); err != nil {
				return err
			}
			if err := replica.ShardControlled(kubeInformerFactory.Batch().V1().CronJobs().Informer()); err != nil {
				return err
			}
		}
		c, err := controller.NewController(ctx, kubeClient, crdClient,
			kubeInformerFactory.Batch().V1().CronJobs(), crdInformerFactory.Stable().V1().CronTabs(), recorder)
		if err != nil {
			return err
		}
		if replica != nil {
			c.GuardReconcile(func(reconcile func(context.Context, string) error) func(context.Context, string) error {
				return replica.Reconciler(cronTabsResource, c.CronTabsGetByKey, c.WorkQueue(), reconcile)
			})
		}
		kubeInformerFactory.Start(ctx.Done())
		crdInformerFactory.Start(ctx.Done())
		workers := opts.Workers
		if workers == 0 {
			workers = 2
		}
		return c.Run(ctx, workers)
	}
	if replica != nil {
		ctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- replica.Run(ctx) }()
		err := run(ctx)
		cancel()
		return errors.Join(err, <-done)
	}
	if !opts.LeaderElection {
		return run(ctx)
	}

	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, namespace, controller.FieldManager,
		kubeClient.CoreV1(), kubeClient.CoordinationV1(), resourcelock.ResourceLockConfig{Identity: identity, EventRecorder: recorder})
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

var (
	cronTabsResource = sharding.Resource{Resource: stablev1.SchemeGroupVersion.WithResource("crontabs"), Kind: "CronTab"}
	cronJobsResource = sharding.Resource{Resource: batchv1.SchemeGroupVersion.WithResource("cronjobs"), Kind: "CronJob"}
)

// shardReplica makes this process a member of opts.ShardRing: the replica, and clientsets whose
// requests from a reconcile are refused once its membership lapsed.
func shardReplica(ctx context.Context, config *rest.Config, opts Options, identity, namespace string) (*sharding.Replica, *kubernetes.Clientset, *versioned.Clientset, error) {
	config = rest.CopyConfig(config)
	config.Wrap(sharding.WrapTransport)
	kubeClient, err := kubernetes.NewForConfig(config)
	if err != nil {
		return nil, nil, nil, err
	}
	crdClient, err := versioned.NewForConfig(config)
	if err != nil {
		return nil, nil, nil, err
	}
	meta, err := metadata.NewForConfig(config)
	if err != nil {
		return nil, nil, nil, err
	}
	leases, err := sharding.NewLeaseClient(config, namespace) // renewals do not queue behind reconciles
	if err != nil {
		return nil, nil, nil, err
	}
	cfg := sharding.Config{
		Ring: opts.ShardRing, Identity: identity, Namespace: namespace,
		Leases: leases, Metadata: meta,
		Resources: []sharding.Resource{cronTabsResource}, Controlled: []sharding.Resource{cronJobsResource},
	}
	switch opts.ShardMode {
	case "", "labels":
	case "server":
		cfg.Mode = sharding.ServerMode
	case "auto":
		supported, err := sharding.SupportsServerMode(ctx, cfg)
		if err != nil {
			return nil, nil, nil, err
		}
		if supported {
			cfg.Mode = sharding.ServerMode
		}
	default:
		return nil, nil, nil, fmt.Errorf("unknown shard mode %q: want labels, server or auto", opts.ShardMode)
	}
	klog.FromContext(ctx).Info("Sharding", "ring", cfg.Ring, "identity", identity, "serverSide", cfg.Mode == sharding.ServerMode)
	replica, err := sharding.New(cfg)
	return replica, kubeClient, crdClient, err
}
