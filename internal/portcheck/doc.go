// Package portcheck holds the proof that client-go controllers port to kgen by changing import
// lines: its tests take real modules from the Go module proxy (k8s.io/sample-controller;
// k8s.io/kube-aggregator's APIService auto-registration and local availability controllers;
// k8s.io/apiextensions-apiserver's API approval and CRD naming controllers), generate their APIs'
// apply configurations, clientsets, listers and informers with kgen's generators, rewrite the
// imports of the controllers and their unit tests from client-go to kgen, and run those tests with
// the race detector.
package portcheck
