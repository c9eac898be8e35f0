// Command crontab-controller runs the CronTab controller against a cluster: in-cluster, or through a
// kubeconfig given by --kubeconfig. With --webhook-addr it also serves the CronTab webhooks the CRD and
// config/webhook name (conversion between v1beta1 and v1, defaulting, validation), with the serving
// certificate of --webhook-cert-dir; the CRD's v1beta1 is only readable while some replica serves them.
package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/kubeconfig"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/runtime/webhook"

	"example.com/crd/app"
	"example.com/crd/webhooks"
)

func main() {
	var masterURL, kubeconfigPath string
	var opts app.Options
	klog.InitFlags(nil)
	flag.StringVar(&kubeconfigPath, "kubeconfig", "", "path to a kubeconfig; only required if out-of-cluster")
	flag.StringVar(&masterURL, "master", "", "the address of the Kubernetes API server; overrides any value in kubeconfig")
	flag.IntVar(&opts.Workers, "workers", 2, "how many CronTabs are reconciled at once")
	flag.BoolVar(&opts.LeaderElection, "leader-elect", false, "run only while holding the crontab-controller Lease")
	flag.StringVar(&opts.LeaderElectionNamespace, "leader-elect-namespace", "default", "the namespace of the Lease (and of the shard ring's Leases)")
	flag.StringVar(&opts.ShardRing, "shard-ring", "", "share the CronTabs among every replica started with this ring name instead of electing one leader")
	flag.StringVar(&opts.ShardMode, "shard-mode", "labels", "how the shard ring shares: labels, server (the API server's sharded list and watch) or auto")
	flag.StringVar(&opts.Identity, "identity", "", "this replica's name in the Lease or shard ring; empty means the host name")
	var webhookOpts webhook.Options
	flag.StringVar(&webhookOpts.Addr, "webhook-addr", "", "serve the CronTab webhooks on this address (the webhook-service's target, e.g. :9443); empty serves none")
	flag.StringVar(&webhookOpts.CertDir, "webhook-cert-dir", "/tmp/k8s-webhook-server/serving-certs", "the directory of the webhook server's tls.crt and tls.key, reread when they change")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := klog.FromContext(ctx)
	cfg, err := kubeconfig.BuildConfigFromFlags(masterURL, kubeconfigPath)
	if err != nil {
		logger.Error(err, "Error building kubeconfig")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	if err := run(ctx, cfg, opts, webhookOpts); err != nil {
		logger.Error(err, "Error running controller")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
}

// run runs the controller and, when webhookOpts.Addr is set, the webhook server, until ctx is done or
// either fails, which stops the other.
func run(ctx context.Context, cfg *rest.Config, opts app.Options, webhookOpts webhook.Options) error {
	if webhookOpts.Addr == "" {
		return app.Run(ctx, cfg, opts)
	}
	srv, err := webhooks.NewServer(webhookOpts)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	served := make(chan error, 1)
	go func() {
		defer cancel()
		served <- srv.Start(ctx)
	}()
	err = app.Run(ctx, cfg, opts)
	cancel()
	return errors.Join(err, <-served)
}
