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
	goruntime "runtime"
	"runtime/pprof"
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
// its CPU time and allocations are its own.
const webhookServerEnv = "KGEN_BENCH_WEBHOOK_SERVER"

// webhookProfileEnv, when set to a directory, has each server write its CPU profile and allocation
// profile there (<server>.cpu, <server>.allocs) for go tool pprof.
const webhookProfileEnv = "KGEN_BENCH_WEBHOOK_PROFILE"

// runWebhookServer serves the conversion webhook spec names on a loopback port and prints its URL. It
// answers each line on its standard input with the count and bytes of its heap allocations so far, and
// stops when its standard input closes.
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
	if profDir := os.Getenv(webhookProfileEnv); profDir != "" {
		stop, err := profileServer(filepath.Join(profDir, name))
		if err != nil {
			fmt.Fprintln(os.Stderr, "webhook server:", err)
			return 2
		}
		defer stop()
	}
	fmt.Println(url)
	for in := bufio.NewScanner(os.Stdin); in.Scan(); {
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		fmt.Println(m.Mallocs, m.TotalAlloc)
	}
	cancel()
	if err := <-done; err != nil {
		fmt.Fprintln(os.Stderr, "webhook server:", err)
		return 1
	}
	return 0
}

// profileServer starts a CPU profile to base.cpu; stop ends it and writes the allocation profile to
// base.allocs.
func profileServer(base string) (stop func(), err error) {
	cpu, err := os.Create(base + ".cpu")
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		allocs, err := os.Create(base + ".allocs")
		if err == nil {
			err = pprof.Lookup("allocs").WriteTo(allocs, 0)
		}
		if err = errors.Join(err, cpu.Close(), allocs.Close()); err != nil {
			fmt.Fprintln(os.Stderr, "webhook server: profile:", err)
		}
	}, nil
}

// webhookServer is a conversion webhook server in a child process.
type webhookServer struct {
	name, url string
	pid       int
	stdin     io.Writer
	stdout    *bufio.Reader
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
	s := &webhookServer{name: name, pid: cmd.Process.Pid, stdin: stdin, stdout: bufio.NewReader(stdout)}
	line, err := s.stdout.ReadString('\n')
	if err != nil {
		b.Fatalf("%s webhook server: %v", name, err)
	}
	s.url = strings.TrimSpace(line)
	return s
}

// serverUsage is what a server process has used so far.
type serverUsage struct {
	cpu                time.Duration // user and system CPU time, in clock ticks of 10 ms
	allocs, allocBytes uint64        // heap allocations
}

// usage reads the server's CPU time from /proc and asks it for its allocations.
func (s *webhookServer) usage(b *testing.B) serverUsage {
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
	u := serverUsage{cpu: time.Duration(utime+stime) * 10 * time.Millisecond}
	if _, err := io.WriteString(s.stdin, "usage\n"); err != nil {
		b.Fatal(err)
	}
	line, err := s.stdout.ReadString('\n')
	if err == nil {
		_, err = fmt.Sscan(line, &u.allocs, &u.allocBytes)
	}
	if err != nil {
		b.Fatalf("%s webhook server: allocations: %v", s.name, err)
	}
	return u
}

// reviewConn is one kept-alive connection sending a review as kube-apiserver's webhook client does
// (k8s.io/apiserver/pkg/util/webhook: client-go's REST client, HTTP/1.1 — it sets NextProtos to
// http/1.1 for every webhook but one on a loopback URL —, the review encoded in full, client-go's
// headers). It writes each request whole and reads the answer with net/http's parser but without
// http.Transport's pool and its two goroutines per connection: its CPU time, which shares the machine
// with the server's, stays small and the same for both servers.
type reviewConn struct {
	conn    *tls.Conn
	in      *bufio.Reader
	request []byte
	answer  bytes.Buffer
}

func dialReviewConn(url string, pool *x509.CertPool, review []byte) (*reviewConn, error) {
	hostPort, path, _ := strings.Cut(strings.TrimPrefix(url, "https://"), "/")
	conn, err := tls.Dial("tcp", hostPort, &tls.Config{RootCAs: pool, NextProtos: []string{"http/1.1"}})
	if err != nil {
		return nil, err
	}
	request := fmt.Appendf(nil, "POST /%s HTTP/1.1\r\nHost: %s\r\nUser-Agent: kube-apiserver-admission\r\n"+
		"Content-Length: %d\r\nAccept: application/json, */*\r\nContent-Type: application/json\r\nAccept-Encoding: gzip\r\n\r\n",
		path, hostPort, len(review))
	return &reviewConn{conn: conn, in: bufio.NewReader(conn), request: append(request, review...)}, nil
}

// send sends the review and returns the answer's body, valid until the next send.
func (c *reviewConn) send() ([]byte, error) {
	if _, err := c.conn.Write(c.request); err != nil {
		return nil, err
	}
	resp, err := http.ReadResponse(c.in, nil)
	if err != nil {
		return nil, err
	}
	c.answer.Reset()
	_, err = c.answer.ReadFrom(resp.Body)
	if err = errors.Join(err, resp.Body.Close()); err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || resp.Close || resp.Header.Get("Content-Encoding") != "" {
		return nil, fmt.Errorf("answer %d (close %v, encoding %q): %.300s", resp.StatusCode, resp.Close, resp.Header.Get("Content-Encoding"), c.answer.Bytes())
	}
	return c.answer.Bytes(), nil
}

// BenchmarkConversionWebhook converts the same ConversionReviews (1 object, as a get needs, and 50, as a
// list does) through kgen's runtime/webhook and controller-runtime v0.25's webhook server, both over
// HTTPS on loopback with the same certificate, each in a process of its own, sent as kube-apiserver
// sends them (see reviewConn) on 8 kept-alive connections at a time. It reports reviews per second, the
// 50th and 99th percentile latency of one review, and, per review, the CPU time and heap allocations of
// the server's process and the CPU time of the clients: the per-review figures a busy machine disturbs
// less than the wall-clock ones.
func BenchmarkConversionWebhook(b *testing.B) {
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		b.Logf("load average: %s", bytes.TrimSpace(load))
	}
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

// checkAnswer decodes an answer in full, which the timed loop leaves out so that the client's work
// weighs less in the figures.
func checkAnswer(body []byte, objects int) error {
	var answer apiextensionsv1.ConversionReview
	if err := json.Unmarshal(body, &answer); err != nil {
		return err
	}
	if answer.Response == nil || answer.Response.UID != "bench" || answer.Response.Result.Status != metav1.StatusSuccess ||
		len(answer.Response.ConvertedObjects) != objects {
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

func benchmarkConversion(b *testing.B, server *webhookServer, pool *x509.CertPool, review []byte, objects int) {
	const clients = 8
	conns := make(chan *reviewConn, clients)
	for range clients {
		c, err := dialReviewConn(server.url, pool, review)
		if err != nil {
			b.Fatal(err)
		}
		defer c.conn.Close()
		answer, err := c.send() // warms the connection
		if err == nil {
			err = checkAnswer(answer, objects)
		}
		if err != nil {
			b.Fatal(err)
		}
		conns <- c
	}
	var (
		mu        sync.Mutex
		latencies []time.Duration
	)
	b.SetParallelism((clients + 1) / 2) // two cores: 8 clients
	var ru0, ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	server0 := server.usage(b)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		c := <-conns
		defer func() { conns <- c }()
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			answer, err := c.send()
			if err == nil && !bytes.Contains(answer, []byte(`"status":"Success"`)) {
				err = fmt.Errorf("answer %.300s", answer)
			}
			if err != nil {
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
	server1 := server.usage(b)
	clientCPU := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
	if len(latencies) == 0 {
		return
	}
	n := float64(len(latencies))
	slices.Sort(latencies)
	b.ReportMetric(n/elapsed.Seconds(), "reviews/s")
	b.ReportMetric(float64((server1.cpu-server0.cpu).Microseconds())/n, "server-cpu-us/review")
	b.ReportMetric(float64(server1.allocs-server0.allocs)/n, "server-allocs/review")
	b.ReportMetric(float64(server1.allocBytes-server0.allocBytes)/n, "server-B/review")
	b.ReportMetric(float64(clientCPU)/1e3/n, "client-cpu-us/review")
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
}
