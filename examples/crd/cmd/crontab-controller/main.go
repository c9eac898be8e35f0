// Command crontab-controller runs the CronTab controller against a cluster: in-cluster, or through a
// kubeconfig given by --kubeconfig.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/kubeconfig"

	"example.com/crd/app"
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
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := klog.FromContext(ctx)
	cfg, err := kubeconfig.BuildConfigFromFlags(masterURL, kubeconfigPath)
	if err != nil {
		logger.Error(err, "Error building kubeconfig")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	if err := app.Run(ctx, cfg, opts); err != nil {
		logger.Error(err, "Error running controller")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
}
