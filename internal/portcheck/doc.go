// Package portcheck holds the proof that a client-go controller ports to kgen by changing import
// lines: its test takes k8s.io/sample-controller from the Go module proxy, generates the sample API's
// apply configurations, clientset, listers and informers with kgen's generators, rewrites the imports
// of the controller, its main and its unit tests from client-go to kgen, and runs those tests.
package portcheck
