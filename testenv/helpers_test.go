//go:build linux

package testenv

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// apiClient is a minimal JSON client the tests use to talk to an environment with a given configuration.
type apiClient struct {
	t    *testing.T
	host string
	http *http.Client
}

func newAPIClient(t *testing.T, config *rest.Config) *apiClient {
	t.Helper()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(config.CAData) {
		t.Fatal("config has no CA certificate")
	}
	cert, err := tls.X509KeyPair(config.CertData, config.KeyData)
	if err != nil {
		t.Fatalf("config client certificate: %v", err)
	}
	transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}}}
	t.Cleanup(transport.CloseIdleConnections)
	return &apiClient{t: t, host: config.Host, http: &http.Client{Transport: transport, Timeout: 30 * time.Second}}
}

// do sends a request and returns the status code and the decoded JSON answer.
func (c *apiClient) do(method, path string, body any) (int, map[string]any) {
	c.t.Helper()
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.host+path, reader)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var out map[string]any
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: reading answer: %v", method, path, err)
	}
	if err := json.Unmarshal(data, &out); err != nil {
		c.t.Fatalf("%s %s: %d answer is not JSON: %v\n%s", method, path, resp.StatusCode, err, data)
	}
	return resp.StatusCode, out
}

// must sends a request and fails the test unless the answer has status want.
func (c *apiClient) must(want int, method, path string, body any) map[string]any {
	c.t.Helper()
	status, out := c.do(method, path, body)
	if status != want {
		c.t.Fatalf("%s %s: status %d, want %d: %v", method, path, status, want, out["message"])
	}
	return out
}

// openWatch starts a watch and returns a decoder over its event stream.
func (c *apiClient) openWatch(ctx context.Context, path string) *json.Decoder {
	c.t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.host+path, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	client := *c.http
	client.Timeout = 0
	resp, err := client.Do(req)
	if err != nil {
		c.t.Fatalf("watch %s: %v", path, err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		c.t.Fatalf("watch %s: status %d", path, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body)
}

func namespaceObject(name string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}
}

func nestedString(obj map[string]any, fields ...string) string {
	var cur any = obj
	for _, f := range fields {
		m, _ := cur.(map[string]any)
		cur = m[f]
	}
	s, _ := cur.(string)
	return s
}

// processGone reports whether pid no longer names a live process; a zombie awaiting its reaper counts as gone.
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// The state follows the parenthesised command name.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && (fields[0] == "Z" || fields[0] == "X")
}

// strayChildren lists this process's children other than the shared environment's; a test that started
// and stopped environments expects none.
func strayChildren(t *testing.T) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var stray []int
	for _, path := range stats {
		stat, err := os.ReadFile(path)
		if err != nil {
			continue // the process ended while we looked
		}
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if len(fields) > 1 && fields[1] == strconv.Itoa(os.Getpid()) && !slices.Contains(env.pids(), pid) {
			stray = append(stray, pid)
		}
	}
	return stray
}

// waitGone fails the test unless every pid is gone within a few seconds.
func waitGone(t *testing.T, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for !processGone(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d is still running", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// pids lists the environment's child processes.
func (e *Environment) pids() []int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return []int{e.etcd.pid(), e.apiserver.pid()}
}

// startEnv starts a private environment that the test stops.
func startEnv(t *testing.T, opts Options) *Environment {
	t.Helper()
	e, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Stop(); err != nil {
			t.Error(err)
		}
	})
	return e
}

// pid is the process id of the last start, or 0 before the first.
func (p *process) pid() int {
	if p.cmd == nil {
		return 0
	}
	return p.cmd.Process.Pid
}
