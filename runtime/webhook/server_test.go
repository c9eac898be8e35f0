package webhook_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/runtime/webhook"
	"github.com/kgen-dev/kgen/runtime/webhook/internal/widgets"
)

// testCA signs serving certificates for 127.0.0.1.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &testCA{cert: cert, key: key, pool: pool}
}

// writeServing writes a serving certificate with the given serial number and
// its key to dir/tls.crt and dir/tls.key.
func (ca *testCA) writeServing(t *testing.T, dir string, serial int64) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "webhook"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, key.Public(), ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	writeFile(t, filepath.Join(dir, "tls.crt"), certPEM)
	writeFile(t, filepath.Join(dir, "tls.key"), keyPEM)
	return certPEM, keyPEM
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// recordingMetrics records what the server reports.
type recordingMetrics struct {
	mu        sync.Mutex
	inFlight  map[string]int
	codes     []string
	certReads int
	certErrs  []error
}

func (m *recordingMetrics) RequestStarted(path string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inFlight[path]++
}

func (m *recordingMetrics) RequestFinished(path string, code int, latency time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inFlight[path]--
	if latency < 0 {
		panic("negative latency")
	}
	m.codes = append(m.codes, fmt.Sprintf("%s %d", path, code))
}

func (m *recordingMetrics) CertificateRead(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.certReads++
	if err != nil {
		m.certErrs = append(m.certErrs, err)
	}
}

// running is a server serving on a loopback port.
type running struct {
	srv     *webhook.Server
	url     string
	client  *http.Client
	cancel  context.CancelFunc
	served  chan error
	metrics *recordingMetrics
}

func startServer(t *testing.T, ca *testCA, dir string, opts webhook.Options, register func(*webhook.Server)) *running {
	t.Helper()
	m := &recordingMetrics{inFlight: map[string]int{}}
	opts.CertDir, opts.Metrics = dir, m
	srv, err := webhook.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	if register != nil {
		register(srv)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{srv: srv, url: "https://" + ln.Addr().String(), cancel: cancel, served: make(chan error, 1), metrics: m,
		client: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.pool}, DisableKeepAlives: true}}}
	go func() { r.served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-r.served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return r
}

func (r *running) post(t *testing.T, path, contentType string, body []byte) (int, []byte) {
	t.Helper()
	resp, err := r.client.Post(r.url+path, contentType, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, data
}

func TestServerAnswersBadRequests(t *testing.T) {
	ca, dir := newTestCA(t), t.TempDir()
	ca.writeServing(t, dir, 2)
	r := startServer(t, ca, dir, webhook.Options{MaxRequestBytes: 4096}, func(s *webhook.Server) {
		if err := s.Register("/convert", webhook.NewConversion(widgets.NewScheme())); err != nil {
			t.Fatal(err)
		}
		if err := s.Register("/validate", webhook.Validating(validateReplicas)); err != nil {
			t.Fatal(err)
		}
	})
	admission := admissionReview(widgetRequest("CREATE", mustJSON(t, sampleWidget()), nil))
	for _, tc := range []struct {
		name, path, contentType string
		body                    []byte
		code                    int
		message                 string
	}{
		{"not JSON", "/convert", "application/json", []byte("{not json"), 400, "decoding ConversionReview: "},
		{"empty", "/validate", "application/json", nil, 400, "empty body: expected a review"},
		{"wrong kind", "/convert", "application/json", admission, 400, `expected a ConversionReview, got kind "AdmissionReview"`},
		{"wrong group", "/validate", "application/json", []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"AdmissionReview"}`), 400, `expected a AdmissionReview of group admission.k8s.io, got apiVersion "apiextensions.k8s.io/v1"`},
		{"old version", "/validate", "application/json", bytes.Replace(admission, []byte("admission.k8s.io/v1"), []byte("admission.k8s.io/v1beta1"), 1), 400, `AdmissionReview version "v1beta1" not supported: only admission.k8s.io/v1 is served`},
		{"old conversion version", "/convert", "application/json", []byte(`{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"ConversionReview","request":{"uid":"x"}}`), 400, `ConversionReview version "v1beta1" not supported`},
		{"no request", "/convert", "application/json", []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}`), 400, "ConversionReview has no request"},
		{"bad apiVersion", "/convert", "application/json", []byte(`{"apiVersion":"a/b/c","kind":"ConversionReview"}`), 400, "apiVersion: "},
		{"not JSON content", "/validate", "application/yaml", admission, 415, `content type "application/yaml" not supported`},
		{"oversized", "/validate", "application/json", append(admission[:len(admission)-1:len(admission)-1], []byte(`,"pad":"`+strings.Repeat("x", 5000)+`"}`)...), 413, "review larger than 4096 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := r.post(t, tc.path, tc.contentType, tc.body)
			if code != tc.code {
				t.Fatalf("code %d, want %d: %s", code, tc.code, body)
			}
			var msg string
			var uid string
			if tc.path == "/convert" {
				resp := decodeConversion(t, body)
				msg, uid = resp.Result.Message, string(resp.UID)
				if resp.Result.Status != metav1.StatusFailure {
					t.Fatalf("status %q", resp.Result.Status)
				}
			} else {
				resp := decodeAdmission(t, body)
				if resp.Allowed || resp.Result.Code != int32(tc.code) {
					t.Fatalf("answer %s", body)
				}
				msg, uid = resp.Result.Message, string(resp.UID)
			}
			if !strings.Contains(msg, tc.message) {
				t.Fatalf("message %q does not contain %q", msg, tc.message)
			}
			if tc.name == "old conversion version" && uid != "x" {
				t.Fatalf("uid %q, want the review's", uid)
			}
		})
	}
	resp, err := r.client.Get(r.url + "/validate")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET answered %d", resp.StatusCode)
	}
}

func TestServerHealthAndMetrics(t *testing.T) {
	ca, dir := newTestCA(t), t.TempDir()
	ca.writeServing(t, dir, 2)
	r := startServer(t, ca, dir, webhook.Options{}, func(s *webhook.Server) {
		if err := s.Register("/validate", webhook.Validating(validateReplicas)); err != nil {
			t.Fatal(err)
		}
		if err := s.Register("/validate", webhook.Validating(validateReplicas)); err == nil || !strings.Contains(err.Error(), `path "/validate" is already served`) {
			t.Fatalf("second registration: %v", err)
		}
		if err := s.Register(webhook.HealthPath, http.NotFoundHandler()); err == nil {
			t.Fatal("registered the health path")
		}
		if err := s.Register("validate", http.NotFoundHandler()); err == nil || !strings.Contains(err.Error(), "does not start with /") {
			t.Fatalf("relative path: %v", err)
		}
	})
	resp, err := r.client.Get(r.url + webhook.HealthPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "ok" {
		t.Fatalf("health: %d %s", resp.StatusCode, body)
	}
	r.post(t, "/validate", "application/json", admissionReview(widgetRequest("CREATE", mustJSON(t, sampleWidget()), nil)))
	r.post(t, "/validate", "application/json", []byte("x"))
	r.metrics.mu.Lock()
	defer r.metrics.mu.Unlock()
	if want := []string{"/validate 200", "/validate 400"}; strings.Join(r.metrics.codes, ",") != strings.Join(want, ",") {
		t.Fatalf("codes %q, want %q", r.metrics.codes, want)
	}
	if r.metrics.inFlight["/validate"] != 0 || r.metrics.certReads != 1 || len(r.metrics.certErrs) != 0 {
		t.Fatalf("metrics %+v", r.metrics)
	}
}

// servedSerial connects anew and returns the serial number of the certificate
// the server presents.
func servedSerial(t *testing.T, r *running) int64 {
	t.Helper()
	conn, err := tls.Dial("tcp", strings.TrimPrefix(r.url, "https://"), &tls.Config{RootCAs: r.client.Transport.(*http.Transport).TLSClientConfig.RootCAs})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
}

func TestServerReloadsCertificate(t *testing.T) {
	ca, dir := newTestCA(t), t.TempDir()
	oldCert, _ := ca.writeServing(t, dir, 2)
	r := startServer(t, ca, dir, webhook.Options{CertCheckPeriod: time.Nanosecond}, nil)
	if got := servedSerial(t, r); got != 2 {
		t.Fatalf("serial %d, want 2", got)
	}
	ca.writeServing(t, dir, 3)
	if got := servedSerial(t, r); got != 3 {
		t.Fatalf("after rotation: serial %d, want 3", got)
	}
	// Half a rotation (a certificate that does not match the key) keeps the
	// last good pair in use and is reported.
	writeFile(t, filepath.Join(dir, "tls.crt"), oldCert)
	if got := servedSerial(t, r); got != 3 {
		t.Fatalf("after a mismatched pair: serial %d, want 3", got)
	}
	r.metrics.mu.Lock()
	errs := r.metrics.certErrs
	r.metrics.mu.Unlock()
	if len(errs) == 0 || !strings.Contains(errs[len(errs)-1].Error(), "private key does not match public key") {
		t.Fatalf("certificate errors %v", errs)
	}
	ca.writeServing(t, dir, 4)
	if got := servedSerial(t, r); got != 4 {
		t.Fatalf("after the rotation completed: serial %d, want 4", got)
	}
}

func TestNewServerNamesMissingCertificate(t *testing.T) {
	dir := t.TempDir()
	_, err := webhook.NewServer(webhook.Options{CertDir: dir})
	if err == nil || !strings.Contains(err.Error(), "reading serving certificate") || !strings.Contains(err.Error(), filepath.Join(dir, "tls.crt")) {
		t.Fatalf("err %v", err)
	}
	writeFile(t, filepath.Join(dir, "tls.crt"), []byte("junk"))
	writeFile(t, filepath.Join(dir, "tls.key"), []byte("junk"))
	if _, err := webhook.NewServer(webhook.Options{CertDir: dir}); err == nil || !strings.Contains(err.Error(), "serving certificate "+filepath.Join(dir, "tls.crt")) {
		t.Fatalf("err %v", err)
	}
}

func TestServerShutsDownGracefully(t *testing.T) {
	ca, dir := newTestCA(t), t.TempDir()
	ca.writeServing(t, dir, 2)
	entered, release := make(chan struct{}), make(chan struct{})
	r := startServer(t, ca, dir, webhook.Options{}, func(s *webhook.Server) {
		if err := s.Register("/slow", webhook.Validating(func(ctx context.Context, _ webhook.Request[*widgets.Widget]) (webhook.Warnings, error) {
			close(entered)
			<-release
			return nil, ctx.Err() // the request's context stays alive during shutdown
		})); err != nil {
			t.Fatal(err)
		}
	})
	answered := make(chan error, 1)
	go func() {
		resp, err := r.client.Post(r.url+"/slow", "application/json", bytes.NewReader(admissionReview(widgetRequest("CREATE", mustJSON(t, sampleWidget()), nil))))
		if err == nil {
			var body []byte
			body, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil && !bytes.Contains(body, []byte(`"allowed":true`)) {
				err = fmt.Errorf("answer %s", body)
			}
		}
		answered <- err
	}()
	<-entered
	r.cancel()
	// Shutdown closes the listener first; once dialing fails it has begun,
	// with the request still in flight.
	for {
		conn, err := net.Dial("tcp", strings.TrimPrefix(r.url, "https://"))
		if err != nil {
			break
		}
		conn.Close()
		runtime.Gosched()
	}
	select {
	case err := <-r.served:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	close(release)
	if err := <-answered; err != nil {
		t.Fatalf("in-flight request: %v", err)
	}
	if err := <-r.served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	r.served <- nil // for the cleanup
}
