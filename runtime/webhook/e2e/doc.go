// Package e2e tests package webhook against a real kube-apiserver started by testenv: the API server
// converts multi-version CRDs through the conversion webhook, asks the admission webhooks, and reports its
// own errors when the webhook server is down or slow. It has no code of its own; it is separate so that
// the unit tests of package webhook run without the server's binaries.
package e2e
