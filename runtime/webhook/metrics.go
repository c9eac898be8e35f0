package webhook

import "time"

// Metrics receives what the server does. The Prometheus adapter in
// webhook/prometheus implements it with controller-runtime's metric names; a
// nil Options.Metrics records nothing.
type Metrics interface {
	// RequestStarted and RequestFinished bracket one request to a webhook path;
	// code is the HTTP status answered.
	RequestStarted(path string)
	RequestFinished(path string, code int, latency time.Duration)
	// CertificateRead reports each time the serving certificate files were
	// (re)read, with the error when they could not be used.
	CertificateRead(err error)
}

type noopMetrics struct{}

func (noopMetrics) RequestStarted(string)                      {}
func (noopMetrics) RequestFinished(string, int, time.Duration) {}
func (noopMetrics) CertificateRead(error)                      {}
