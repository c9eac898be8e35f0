// Package rest is kgen's HTTP client for the Kubernetes API: configuration, transport (TLS, auth,
// exec credential plugins), a fluent Request builder, response decoding, watch stream decoding,
// client-side rate limiting and retries. Its surface mirrors client-go's rest package.
package rest
