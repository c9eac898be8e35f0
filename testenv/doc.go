// Package testenv runs a real etcd and kube-apiserver as child processes on loopback ports, so tests can
// prove clients against the actual API server instead of a mock.
//
// The binaries are built from source by `go run github.com/kgen-dev/kgen/cmd/kgen testenv` (Go module proxy
// only, from any module that requires kgen) into
// $HOME/.cache/kgen/testenv/<KubernetesVersion>/; KGEN_TESTENV_ASSETS or KUBEBUILDER_ASSETS may name another
// directory holding kube-apiserver and etcd. KubernetesVersion is the release that matches the module's
// k8s.io/api.
//
// Start generates a CA, serving and client certificates and service-account keys, starts etcd and
// kube-apiserver (RBAC authorization, no controllers) in a temporary directory and waits until the server
// is ready. Children die with the test binary (on Linux through the parent-death signal) and Stop ends
// exactly the processes Start began. Options.Webhooks serves webhooks from the test process: Start issues a
// serving certificate for 127.0.0.1 from the environment's CA, points CRD conversions and webhook
// configurations at it, and returns once the API server calls them (see WebhookOptions and docs/webhooks.md).
// Main shares one Environment across a package's tests:
//
//	var env *testenv.Environment
//
//	func TestMain(m *testing.M) { os.Exit(testenv.Main(m, testenv.Options{}, &env)) }
package testenv
