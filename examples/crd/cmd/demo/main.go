// Command demo is the example's main job: it starts a real kube-apiserver and etcd (testenv), installs the
// CronTab CRD and its webhook configurations, serves the conversion and admission webhooks, runs the
// CronTab controller against them and prints what the controller and the webhooks do. Run it from
// examples/crd: `go run ./cmd/demo` (add -v to see the controller's own logs).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/testenv"

	"example.com/crd/demo"
)

func main() {
	verbose := flag.Bool("v", false, "show the controller's logs")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, verbose bool) error {
	start := time.Now()
	env, err := testenv.Start(ctx, demo.TestenvOptions("."))
	if err != nil {
		return err
	}
	defer env.Stop()
	fmt.Printf("kube-apiserver %s ready at %s in %s, CRD crontabs.stable.example.com (v1, v1beta1) and webhook configurations installed\n",
		testenv.KubernetesVersion, env.Config().Host, time.Since(start).Round(100*time.Millisecond))
	ctx, stopWebhooks := context.WithCancel(ctx)
	defer stopWebhooks()
	served, err := demo.ServeWebhooks(ctx, env)
	if err != nil {
		return err
	}
	defer func() { stopWebhooks(); <-served }()
	fmt.Printf("webhook server at %s: conversion, defaulting and validation of CronTabs\n", env.WebhookServing().Addr())
	logger := logr.Discard()
	if verbose {
		logger = klog.Background()
	}
	if err := demo.Run(ctx, env.Config(), logger, os.Stdout); err != nil {
		return err
	}
	fmt.Printf("done in %s\n", time.Since(start).Round(100*time.Millisecond))
	return nil
}
