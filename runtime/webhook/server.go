package webhook

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Defaults of Options.
const (
	DefaultAddr              = ":9443"
	DefaultCertName          = "tls.crt"
	DefaultKeyName           = "tls.key"
	DefaultMaxRequestBytes   = 32 << 20
	DefaultCertCheckPeriod   = 10 * time.Second
	DefaultShutdownTimeout   = 30 * time.Second
	HealthPath               = "/healthz"
	defaultReadHeaderTimeout = 10 * time.Second
)

// Options configures a Server. The zero value serves on DefaultAddr with the
// certificate in the current directory's tls.crt and tls.key.
type Options struct {
	// Addr is the host:port Start listens on; empty means DefaultAddr.
	Addr string
	// CertDir holds the serving certificate and key, named CertName and
	// KeyName (tls.crt and tls.key when empty), in PEM.
	CertDir, CertName, KeyName string
	// CertCheckPeriod is how often, at most, the certificate files are checked
	// for a change (on a TLS handshake); zero means DefaultCertCheckPeriod.
	CertCheckPeriod time.Duration
	// MaxRequestBytes bounds a review's body; zero means
	// DefaultMaxRequestBytes (32 MiB: a conversion review carries a whole list).
	MaxRequestBytes int64
	// ShutdownTimeout bounds how long Start waits for in-flight requests once
	// its context is done; zero means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// TLSMinVersion is the lowest TLS version served; zero means TLS 1.2.
	TLSMinVersion uint16
	// Metrics receives request and certificate metrics; nil records nothing.
	Metrics Metrics
}

// Server serves registered webhooks over HTTPS, plus HealthPath.
type Server struct {
	opts  Options
	certs *certReloader
	mux   *http.ServeMux

	mu    sync.Mutex
	paths map[string]bool
}

// NewServer loads the serving certificate and returns a server with no webhook
// registered yet.
func NewServer(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if opts.CertName == "" {
		opts.CertName = DefaultCertName
	}
	if opts.KeyName == "" {
		opts.KeyName = DefaultKeyName
	}
	if opts.CertCheckPeriod <= 0 {
		opts.CertCheckPeriod = DefaultCertCheckPeriod
	}
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = DefaultShutdownTimeout
	}
	if opts.TLSMinVersion == 0 {
		opts.TLSMinVersion = tls.VersionTLS12
	}
	if opts.Metrics == nil {
		opts.Metrics = noopMetrics{}
	}
	certs, err := newCertReloader(filepath.Join(opts.CertDir, opts.CertName), filepath.Join(opts.CertDir, opts.KeyName),
		opts.CertCheckPeriod, time.Now, opts.Metrics)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, certs: certs, mux: http.NewServeMux(), paths: map[string]bool{}}
	s.mux.HandleFunc(HealthPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok"))
	})
	return s, nil
}

// Register serves h on path (an exact path, such as "/convert"), limiting the
// body size and recording metrics. Registering a path twice, or HealthPath, is
// an error.
func (s *Server) Register(path string, h http.Handler) error {
	if !strings.HasPrefix(path, "/") {
		return fmt.Errorf("webhook: path %q does not start with /", path)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if path == HealthPath || s.paths[path] {
		return fmt.Errorf("webhook: path %q is already served", path)
	}
	s.paths[path] = true
	s.mux.Handle(path, s.instrument(path, h))
	return nil
}

// Handler is the server's HTTP handler (webhooks and HealthPath), for serving
// it on a listener of one's own.
func (s *Server) Handler() http.Handler { return s.mux }

// TLSConfig is the server's TLS configuration: the reloaded certificate and
// the minimum version.
func (s *Server) TLSConfig() *tls.Config {
	return &tls.Config{GetCertificate: s.certs.GetCertificate, MinVersion: s.opts.TLSMinVersion}
}

// Start listens on Options.Addr and serves until ctx is done, then shuts down
// gracefully. It returns nil after a clean shutdown.
func (s *Server) Start(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	return s.Serve(ctx, ln)
}

// Serve serves HTTPS on ln until ctx is done, then stops accepting, waits up
// to Options.ShutdownTimeout for requests in flight and closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.mux,
		TLSConfig:         s.TLSConfig(),
		ReadHeaderTimeout: defaultReadHeaderTimeout,
		IdleTimeout:       90 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	served := make(chan error, 1)
	go func() { served <- srv.ServeTLS(ln, "", "") }()
	select {
	case err := <-served:
		return fmt.Errorf("webhook: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	if err != nil {
		return fmt.Errorf("webhook: shutting down: %w", err)
	}
	return nil
}

// instrument limits the body and records the request.
func (s *Server) instrument(path string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		s.opts.Metrics.RequestStarted(path)
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		r.Body = http.MaxBytesReader(rec, r.Body, s.opts.MaxRequestBytes)
		defer func() { s.opts.Metrics.RequestFinished(path, rec.code, time.Since(start)) }()
		h.ServeHTTP(rec, r)
	})
}

// statusRecorder remembers the status code written.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.code = code
	r.ResponseWriter.WriteHeader(code)
}
