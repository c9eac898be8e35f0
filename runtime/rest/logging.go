package rest

import (
	"context"
	"net/http"
	"strings"
	"time"

	"k8s.io/klog/v2"
)

// Verbosity levels of request logging, as in client-go: URL and status at 6, headers at 7, bodies
// truncated at 8 and in full at 9. Credentials are always redacted.
const (
	logLevelURL      = 6
	logLevelHeaders  = 7
	logLevelBody     = 8
	logLevelFullBody = 9
	truncatedBodyLen = 1024
)

func logRoundTrip(ctx context.Context, req *http.Request, resp *http.Response, err error, latency time.Duration) {
	logger := klog.FromContext(ctx)
	if !logger.V(logLevelURL).Enabled() {
		return
	}
	status := ""
	if resp != nil {
		status = resp.Status
	}
	logger.V(logLevelURL).Info("HTTP request", "verb", req.Method, "url", req.URL.String(), "status", status, "milliseconds", latency.Milliseconds(), "err", err)
	if logger.V(logLevelHeaders).Enabled() {
		logger.V(logLevelHeaders).Info("Request headers", "headers", redactHeaders(req.Header))
		if resp != nil {
			logger.V(logLevelHeaders).Info("Response headers", "headers", redactHeaders(resp.Header))
		}
	}
}

func logBody(ctx context.Context, what string, body []byte) {
	logger := klog.FromContext(ctx)
	if !logger.V(logLevelBody).Enabled() || len(body) == 0 {
		return
	}
	if !logger.V(logLevelFullBody).Enabled() && len(body) > truncatedBodyLen {
		logger.V(logLevelBody).Info(what, "body", string(body[:truncatedBodyLen]), "truncatedFrom", len(body))
		return
	}
	logger.V(logLevelBody).Info(what, "body", string(body))
}

// sensitiveHeaders hold credentials and are never logged.
var sensitiveHeaders = map[string]bool{"Authorization": true, "Proxy-Authorization": true, "Cookie": true, "Set-Cookie": true}

// redactHeaders returns a copy of h with credential values masked; the auth scheme is kept.
func redactHeaders(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for k, v := range h {
		if !sensitiveHeaders[http.CanonicalHeaderKey(k)] {
			out[k] = v
			continue
		}
		masked := make([]string, len(v))
		for i, s := range v {
			masked[i] = "<masked>"
			if scheme, _, found := strings.Cut(s, " "); found && strings.HasSuffix(k, "Authorization") {
				masked[i] = scheme + " <masked>"
			}
		}
		out[k] = masked
	}
	return out
}
