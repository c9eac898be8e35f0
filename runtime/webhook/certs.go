package webhook

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"os"
	"sync"
	"time"
)

// certReloader hands out the serving certificate and rereads its files, at
// most once per interval, when a TLS handshake asks for it. A pair that does
// not load (a rotation caught between writing the certificate and the key)
// leaves the previous one in use until the files are consistent again.
type certReloader struct {
	certFile, keyFile string
	interval          time.Duration
	now               func() time.Time
	metrics           Metrics

	mu              sync.Mutex
	cert            *tls.Certificate
	certPEM, keyPEM []byte
	checked         time.Time
}

func newCertReloader(certFile, keyFile string, interval time.Duration, now func() time.Time, metrics Metrics) (*certReloader, error) {
	r := &certReloader{certFile: certFile, keyFile: keyFile, interval: interval, now: now, metrics: metrics}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.reload(); err != nil {
		return nil, err
	}
	return r, nil
}

// GetCertificate is tls.Config.GetCertificate.
func (r *certReloader) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := r.now(); now.Sub(r.checked) >= r.interval {
		// An error keeps the certificate in use; it was reported to the metrics.
		_ = r.reload()
	}
	return r.cert, nil
}

// reload reads both files and, when either changed, parses and installs the
// pair. r.mu is held.
func (r *certReloader) reload() error {
	r.checked = r.now()
	certPEM, err := os.ReadFile(r.certFile)
	if err != nil {
		return r.report(fmt.Errorf("webhook: reading serving certificate: %w", err))
	}
	keyPEM, err := os.ReadFile(r.keyFile)
	if err != nil {
		return r.report(fmt.Errorf("webhook: reading serving key: %w", err))
	}
	if r.cert != nil && bytes.Equal(certPEM, r.certPEM) && bytes.Equal(keyPEM, r.keyPEM) {
		return nil
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return r.report(fmt.Errorf("webhook: serving certificate %s and key %s: %w", r.certFile, r.keyFile, err))
	}
	r.cert, r.certPEM, r.keyPEM = &cert, certPEM, keyPEM
	return r.report(nil)
}

func (r *certReloader) report(err error) error {
	r.metrics.CertificateRead(err)
	return err
}
