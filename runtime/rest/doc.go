// Package rest is kgen's HTTP client for the Kubernetes API: configuration, transport (TLS, auth,
// exec credential plugins), a fluent Request builder, response decoding, watch stream decoding,
// client-side rate limiting and retries. Its surface mirrors client-go's rest package, so code ports by
// changing imports.
//
// Behaviour follows client-go (QPS/Burst 5/10 by default, QPS < 0 disables limiting, watches are not
// limited, Retry-After honoured on 429 and 5xx, GETs retried after dropped connections, at most 10
// retries, server errors as *errors.StatusError). Where kgen does better:
//   - rate limiting uses golang.org/x/time/rate through the small RateLimiter interface, so the
//     generated clientset needs no flowcontrol package;
//   - exec credential plugins are run once per process for identical configurations, and a request
//     rejected with 401 is retried once with fresh credentials when its body can be replayed;
//   - clients built from configs with the same TLS settings share one connection pool, and idle HTTP/2
//     connections are pinged so watches on dead connections fail instead of hanging;
//   - DoInto, which typed clients' List uses, decodes a typed list response in JSON or protobuf item
//     by item as it is read, so the whole body and the decoded list are never held together;
//   - a stopped watch ends quietly instead of sometimes emitting a spurious decode-error event, and a
//     malformed frame becomes an Error event, never a panic;
//   - Config.String and request logs never show tokens, passwords, private keys or exec environment values.
//
// Body accepts a runtime.Object, []byte or io.Reader; unlike client-go a string is not read as a file name.
package rest
