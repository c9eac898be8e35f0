// Package bench holds side-by-side benchmarks of kgen against k8s.io/client-go and
// k8s.io/code-generator. It is its own module so that only it imports client-go.
package bench
