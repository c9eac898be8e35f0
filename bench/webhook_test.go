package bench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	crconversion "sigs.k8s.io/controller-runtime/pkg/conversion"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
	crwebhook "sigs.k8s.io/controller-runtime/pkg/webhook"
	crconversionwebhook "sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	"github.com/kgen-dev/kgen/runtime/webhook"
)

// The kind both conversion webhooks serve: v1 is the hub; v1beta1 renames a field and flattens a struct.
var (
	convHubGV   = schema.GroupVersion{Group: "bench.kgen.dev", Version: "v1"}
	convSpokeGV = schema.GroupVersion{Group: "bench.kgen.dev", Version: "v1beta1"}
)

type convHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              convHubSpec `json:"spec"`
}

type convHubSpec struct {
	Color    string            `json:"color,omitempty"`
	Replicas *int32            `json:"replicas,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
	Size     convSize          `json:"size"`
	Parts    []convPart        `json:"parts,omitempty"`
}

type convSize struct {
	Width  int64 `json:"width"`
	Height int64 `json:"height"`
}

type convPart struct {
	Name  string `json:"name"`
	Count int32  `json:"count"`
}

// Hub marks the hub for both runtimes (their Hub interfaces have the same method).
func (*convHub) Hub() {}

func (h *convHub) DeepCopyObject() runtime.Object {
	out := *h
	h.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if h.Spec.Replicas != nil {
		r := *h.Spec.Replicas
		out.Spec.Replicas = &r
	}
	out.Spec.Selector = maps.Clone(h.Spec.Selector)
	out.Spec.Parts = slices.Clone(h.Spec.Parts)
	return &out
}

type convSpoke struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              convSpokeSpec `json:"spec"`
}

type convSpokeSpec struct {
	Colour   string            `json:"colour,omitempty"`
	Replicas *int32            `json:"replicas,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
	Width    int64             `json:"width"`
	Height   int64             `json:"height"`
	Parts    []convPart        `json:"parts,omitempty"`
}

func (s *convSpoke) DeepCopyObject() runtime.Object {
	out := *s
	s.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if s.Spec.Replicas != nil {
		r := *s.Spec.Replicas
		out.Spec.Replicas = &r
	}
	out.Spec.Selector = maps.Clone(s.Spec.Selector)
	out.Spec.Parts = slices.Clone(s.Spec.Parts)
	return &out
}

func (s *convSpoke) toHub(h *convHub) {
	h.ObjectMeta = s.ObjectMeta
	h.Spec = convHubSpec{Color: s.Spec.Colour, Replicas: s.Spec.Replicas, Selector: s.Spec.Selector,
		Size: convSize{Width: s.Spec.Width, Height: s.Spec.Height}, Parts: s.Spec.Parts}
}

func (s *convSpoke) fromHub(h *convHub) {
	s.ObjectMeta = h.ObjectMeta
	s.Spec = convSpokeSpec{Colour: h.Spec.Color, Replicas: h.Spec.Replicas, Selector: h.Spec.Selector,
		Width: h.Spec.Size.Width, Height: h.Spec.Size.Height, Parts: h.Spec.Parts}
}

// kgenSpoke is the spoke as kgen's runtime/webhook converts it.
type kgenSpoke struct{ convSpoke }

func (s *kgenSpoke) ConvertTo(dst webhook.Hub) error   { s.toHub(dst.(*convHub)); return nil }
func (s *kgenSpoke) ConvertFrom(src webhook.Hub) error { s.fromHub(src.(*convHub)); return nil }
func (s *kgenSpoke) DeepCopyObject() runtime.Object {
	return &kgenSpoke{*s.convSpoke.DeepCopyObject().(*convSpoke)}
}

// crSpoke is the same spoke as controller-runtime converts it.
type crSpoke struct{ convSpoke }

func (s *crSpoke) ConvertTo(dst crconversion.Hub) error   { s.toHub(dst.(*convHub)); return nil }
func (s *crSpoke) ConvertFrom(src crconversion.Hub) error { s.fromHub(src.(*convHub)); return nil }
func (s *crSpoke) DeepCopyObject() runtime.Object {
	return &crSpoke{*s.convSpoke.DeepCopyObject().(*convSpoke)}
}

func convScheme(spoke runtime.Object) *runtime.Scheme {
	s := runtime.NewScheme()
	s.AddKnownTypeWithName(convHubGV.WithKind("Widget"), &convHub{})
	s.AddKnownTypeWithName(convSpokeGV.WithKind("Widget"), spoke)
	return s
}

// conversionReview is a review asking for v1 of n v1beta1 objects.
func conversionReview(n int) []byte {
	review := apiextensionsv1.ConversionReview{Request: &apiextensionsv1.ConversionRequest{UID: "bench", DesiredAPIVersion: convHubGV.String()}}
	review.APIVersion, review.Kind = "apiextensions.k8s.io/v1", "ConversionReview"
	for i := range n {
		replicas := int32(i)
		obj := convSpoke{
			TypeMeta: metav1.TypeMeta{APIVersion: convSpokeGV.String(), Kind: "Widget"},
			ObjectMeta: metav1.ObjectMeta{Name: "widget-" + strconv.Itoa(i), Namespace: "default", UID: "0b4a9c7e-5d1f-4f0a-9a55-1d2c3b4a5f60",
				ResourceVersion: "12345", Generation: 3, CreationTimestamp: metav1.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
				Labels:      map[string]string{"app": "bench", "tier": "backend", "index": strconv.Itoa(i)},
				Annotations: map[string]string{"example.com/note": "a note of some length to make the object realistic"}},
			Spec: convSpokeSpec{Colour: "red", Replicas: &replicas, Selector: map[string]string{"app": "bench"}, Width: 640, Height: 480,
				Parts: []convPart{{Name: "wheel", Count: 4}, {Name: "door", Count: 2}, {Name: "seat", Count: 5}}},
		}
		data, err := json.Marshal(obj)
		if err != nil {
			panic(err)
		}
		review.Request.Objects = append(review.Request.Objects, runtime.RawExtension{Raw: data})
	}
	data, err := json.Marshal(review)
	if err != nil {
		panic(err)
	}
	return data
}

// writeServingCert writes a self-signed serving certificate for 127.0.0.1 to dir/tls.crt and tls.key and
// returns a pool trusting it.
func writeServingCert(b *testing.B, dir string) *x509.CertPool {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "bench-webhook"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		b.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		b.Fatal(err)
	}
	for name, block := range map[string]*pem.Block{"tls.crt": {Type: "CERTIFICATE", Bytes: der}, "tls.key": {Type: "PRIVATE KEY", Bytes: keyDER}} {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(block), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		b.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return pool
}

// webhookServerEnv carries, to a copy of this test binary, the conversion webhook server it runs:
// "kgen:<cert dir>" or "controller-runtime:<cert dir>". Each server runs in a process of its own, so
// its CPU time is its own.
const webhookServerEnv = "KGEN_BENCH_WEBHOOK_SERVER"

// runWebhookServer serves the conversion webhook spec names on a loopback port, prints its URL and
// serves until its standard input closes.
func runWebhookServer(spec string) int {
	name, dir, _ := strings.Cut(spec, ":")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	var url string
	switch name {
	case "kgen":
		srv, err := webhook.NewServer(webhook.Options{CertDir: dir})
		if err == nil {
			err = srv.Register("/convert", webhook.NewConversion(convScheme(&kgenSpoke{})))
		}
		ln, lnErr := net.Listen("tcp", "127.0.0.1:0")
		if err = errors.Join(err, lnErr); err != nil {
			fmt.Fprintln(os.Stderr, "webhook server:", err)
			return 2
		}
		url = "https://" + ln.Addr().String() + "/convert"
		go func() { done <- srv.Serve(ctx, ln) }()
	case "controller-runtime":
		crlog.SetLogger(logr.Discard())
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, "webhook server:", err)
			return 2
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		srv := crwebhook.NewServer(crwebhook.Options{Host: "127.0.0.1", Port: port, CertDir: dir})
		srv.Register("/convert", crconversionwebhook.NewWebhookHandler(convScheme(&crSpoke{}), crconversionwebhook.NewRegistry()))
		go func() { done <- srv.Start(ctx) }()
		for srv.StartedChecker()(nil) != nil {
			select {
			case err := <-done:
				fmt.Fprintln(os.Stderr, "webhook server:", err)
				return 2
			case <-time.After(5 * time.Millisecond):
			}
		}
		url = "https://127.0.0.1:" + strconv.Itoa(port) + "/convert"
	default:
		fmt.Fprintln(os.Stderr, "webhook server: unknown server", name)
		return 2
	}
	fmt.Println(url)
	_, _ = io.Copy(io.Discard, os.Stdin)
	cancel()
	if err := <-done; err != nil {
		fmt.Fprintln(os.Stderr, "webhook server:", err)
		return 1
	}
	return 0
}

// webhookServer is a conversion webhook server in a child process.
type webhookServer struct {
	name, url string
	pid       int
}

// startWebhookServer starts a child serving name's conversion webhook with the certificate in dir.
func startWebhookServer(b *testing.B, name, dir string) *webhookServer {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), webhookServerEnv+"="+name+":"+dir)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			b.Errorf("%s webhook server: %v", name, err)
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("%s webhook server: %v", name, err)
	}
	return &webhookServer{name: name, url: strings.TrimSpace(line), pid: cmd.Process.Pid}
}

// cpuTime is the user and system CPU time the process has used, from /proc (in clock ticks of 10 ms).
func (s *webhookServer) cpuTime(b *testing.B) time.Duration {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(s.pid) + "/stat")
	if err != nil {
		b.Fatal(err)
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		b.Fatal(err)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// BenchmarkConversionWebhook converts the same ConversionReviews (1 object, as a get needs, and 50, as a
// list does) through kgen's runtime/webhook and controller-runtime v0.25's webhook server, both over
// HTTPS on loopback with the same certificate, each in a process of its own, 8 clients at a time. It
// reports reviews per second, the 50th and 99th percentile latency of one review, and the CPU time per
// review of the server's process and of the clients, which a busy machine disturbs less than the
// wall-clock figures.
func BenchmarkConversionWebhook(b *testing.B) {
	dir := b.TempDir()
	pool := writeServingCert(b, dir)
	servers := []*webhookServer{startWebhookServer(b, "kgen", dir), startWebhookServer(b, "controller-runtime", dir)}
	for _, objects := range []int{1, 50} {
		review := conversionReview(objects)
		for _, server := range servers {
			b.Run(fmt.Sprintf("objects=%d/%s", objects, server.name), func(b *testing.B) {
				benchmarkConversion(b, server, pool, review, objects)
			})
		}
	}
}

func benchmarkConversion(b *testing.B, server *webhookServer, pool *x509.CertPool, review []byte, objects int) {
	const clients = 8
	transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, MaxIdleConnsPerHost: clients}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport}
	// convert sends the review; check decodes the answer in full, which the timed loop leaves out so that
	// the client's work (the same for both servers) weighs less in the figures.
	convert := func(check bool) error {
		resp, err := client.Post(server.url, "application/json", bytes.NewReader(review))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`"status":"Success"`)) {
			return fmt.Errorf("answer %d: %.300s", resp.StatusCode, body)
		}
		if !check {
			return nil
		}
		var answer apiextensionsv1.ConversionReview
		if err := json.Unmarshal(body, &answer); err != nil {
			return err
		}
		if answer.Response == nil || answer.Response.UID != "bench" || len(answer.Response.ConvertedObjects) != objects {
			return fmt.Errorf("answer %.300s", body)
		}
		var first convHub
		if err := json.Unmarshal(answer.Response.ConvertedObjects[0].Raw, &first); err != nil {
			return err
		}
		if first.APIVersion != convHubGV.String() || first.Spec.Color != "red" || first.Spec.Size.Width != 640 || len(first.Spec.Parts) != 3 {
			return fmt.Errorf("converted %+v", first)
		}
		return nil
	}
	for range clients { // warm the connections
		if err := convert(true); err != nil {
			b.Fatal(err)
		}
	}
	var (
		mu        sync.Mutex
		latencies []time.Duration
	)
	b.SetParallelism((clients + 1) / 2) // two cores: 8 clients
	b.ReportAllocs()
	var ru0, ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	serverCPU0 := server.cpuTime(b)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			if err := convert(false); err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		latencies = append(latencies, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	clientCPU := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
	serverCPU := server.cpuTime(b) - serverCPU0
	if len(latencies) == 0 {
		return
	}
	slices.Sort(latencies)
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "reviews/s")
	b.ReportMetric(float64(serverCPU.Microseconds())/float64(len(latencies)), "server-cpu-us/review")
	b.ReportMetric(float64(clientCPU)/1e3/float64(len(latencies)), "client-cpu-us/review")
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
}
