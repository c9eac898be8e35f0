package testenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// Each environment's directory is named dirPrefix* in the temporary directory and records the id of the
// process that owns it in ownerFile.
const (
	dirPrefix = "kgen-testenv-"
	ownerFile = "owner.pid"
)

// portAttempts is how often Start picks fresh ports when another process took one before a child bound it.
const portAttempts = 3

// Environment is a running etcd and kube-apiserver pair. Its methods are safe for concurrent use.
type Environment struct {
	opts       Options
	dir        string
	host       string
	ca         *authority
	admin      keyPair
	kubeconfig string
	client     *http.Client // admin credentials, for testenv's own requests
	webhooks   *webhooks    // nil unless Options.Webhooks is set

	mu        sync.Mutex
	etcd      *process
	apiserver *process
	stopped   bool
}

// Start launches etcd and kube-apiserver on free loopback ports in a new temporary directory, waits until
// the API server is ready and installs opts.CRDs. On error nothing is left running or on disk.
func Start(ctx context.Context, opts Options) (*Environment, error) {
	etcdPath, err := opts.binary("etcd")
	if err != nil {
		return nil, err
	}
	apiserverPath, err := opts.binary("kube-apiserver")
	if err != nil {
		return nil, err
	}
	if err := checkWebhookOptions(opts); err != nil {
		return nil, err
	}
	removeStaleDirs()
	dir, err := os.MkdirTemp("", dirPrefix)
	if err != nil {
		return nil, fmt.Errorf("testenv: %w", err)
	}
	e := &Environment{opts: opts, dir: dir}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		return nil, errors.Join(fmt.Errorf("testenv: %w", err), e.Stop())
	}
	if err := e.start(ctx, etcdPath, apiserverPath); err != nil {
		return nil, errors.Join(err, e.Stop())
	}
	return e, nil
}

func (e *Environment) start(ctx context.Context, etcdPath, apiserverPath string) error {
	pki, err := e.writePKI()
	if err != nil {
		return err
	}
	if e.opts.Webhooks.enabled() {
		if err := e.setupWebhooks(); err != nil {
			return err
		}
	}
	for attempt := 1; ; attempt++ {
		err := e.launch(ctx, pki, etcdPath, apiserverPath)
		if err == nil {
			break
		}
		if attempt == portAttempts || !e.lostPortRace() {
			return err
		}
		if err := errors.Join(e.apiserver.stop(0), e.etcd.stop(0), removeAll(e.etcdDataDir(), e.apiserver.logPath, e.etcd.logPath)); err != nil {
			return err
		}
	}
	if err := e.writeKubeconfig(); err != nil {
		return err
	}
	if len(e.opts.CRDs) > 0 {
		if err := e.InstallCRDs(ctx, e.opts.CRDs...); err != nil {
			return err
		}
	}
	if len(e.opts.Webhooks.Configurations) > 0 {
		return e.InstallWebhookConfigurations(ctx, e.opts.Webhooks.Configurations...)
	}
	return nil
}

// launch starts etcd and kube-apiserver on fresh ports and waits until the API server is ready.
func (e *Environment) launch(ctx context.Context, pki pkiFiles, etcdPath, apiserverPath string) error {
	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	e.host = "https://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[2]))
	e.etcd = &process{
		name:    "etcd",
		path:    etcdPath,
		args:    append(etcdArgs(e.etcdDataDir(), ports[0], ports[1]), e.opts.EtcdArgs...),
		logPath: filepath.Join(e.dir, "etcd.log"),
	}
	e.apiserver = &process{
		name:    "kube-apiserver",
		path:    apiserverPath,
		args:    append(apiserverArgs(pki, ports[0], ports[2]), e.opts.APIServerArgs...),
		logPath: filepath.Join(e.dir, "kube-apiserver.log"),
	}
	if err := e.etcd.start(); err != nil {
		return err
	}
	if err := e.apiserver.start(); err != nil {
		return err
	}
	return e.waitReady(ctx)
}

func (e *Environment) etcdDataDir() string { return filepath.Join(e.dir, "etcd") }

// removeStaleDirs deletes the directories of environments whose test binary died without stopping them;
// etcd preallocates its write-ahead log, so each holds over 100 MB.
func removeStaleDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPrefix+"*"))
	for _, dir := range dirs {
		owner, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue // not ours, or its owner has not written the file yet
		}
		if pid, err := strconv.Atoi(string(owner)); err == nil && !processAlive(pid) {
			_ = os.RemoveAll(dir)
		}
	}
}

// lostPortRace reports whether a child failed because a port chosen for it was taken in the meantime.
func (e *Environment) lostPortRace() bool {
	for _, p := range []*process{e.etcd, e.apiserver} {
		if data, err := os.ReadFile(p.logPath); err == nil && strings.Contains(string(data), "address already in use") {
			return true
		}
	}
	return false
}

// waitReady polls until the API server reports ready and serves the default namespace (which it creates
// just after /readyz turns green), failing early with the log of a child that exits.
func (e *Environment) waitReady(ctx context.Context) error {
	ctx, cancel := e.startContext(ctx)
	defer cancel()
	defer e.client.CloseIdleConnections()
	last := "no answer yet"
	for {
		for _, p := range []*process{e.etcd, e.apiserver} {
			if !p.running() {
				return errors.New(p.describe("exited during startup (" + p.status + ")"))
			}
		}
		ready, why := e.ready(ctx)
		if ready {
			return nil
		}
		if ctx.Err() == nil {
			last = why
		}
		select {
		case <-ctx.Done():
			problem := fmt.Sprintf("was not ready (%v): %s", context.Cause(ctx), last)
			return errors.New(e.apiserver.describe(problem) + e.etcd.logTail(logTailLines/2))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// startContext bounds a wait by Options.StartTimeout; on expiry its cause says how long it waited.
func (e *Environment) startContext(ctx context.Context) (context.Context, context.CancelFunc) {
	timeout := e.opts.startTimeout()
	return context.WithTimeoutCause(ctx, timeout, fmt.Errorf("waited %v", timeout))
}

// ready reports whether the API server is ready for tests, and if not, why.
func (e *Environment) ready(ctx context.Context) (bool, string) {
	for _, path := range []string{"/readyz", "/api/v1/namespaces/default"} {
		status, body, err := e.do(ctx, http.MethodGet, path, nil)
		if err != nil {
			return false, strings.TrimPrefix(err.Error(), "testenv: ")
		}
		if status != http.StatusOK {
			return false, fmt.Sprintf("%s answered %d: %s", path, status, strings.TrimSpace(string(body)))
		}
	}
	return true, ""
}

// writeKubeconfig writes a kubeconfig with embedded admin credentials for tools and clients that read one.
func (e *Environment) writeKubeconfig() error {
	config := map[string]any{
		"apiVersion":      "v1",
		"kind":            "Config",
		"current-context": "testenv",
		"clusters": []any{map[string]any{"name": "testenv", "cluster": map[string]any{
			"server": e.host, "certificate-authority-data": e.ca.certPEM,
		}}},
		"users": []any{map[string]any{"name": "admin", "user": map[string]any{
			"client-certificate-data": e.admin.certPEM, "client-key-data": e.admin.keyPEM,
		}}},
		"contexts": []any{map[string]any{"name": "testenv", "context": map[string]any{
			"cluster": "testenv", "user": "admin",
		}}},
	}
	data, err := yaml.Marshal(config)
	if err != nil {
		return fmt.Errorf("testenv: kubeconfig: %w", err)
	}
	e.kubeconfig = filepath.Join(e.dir, "kubeconfig")
	if err := os.WriteFile(e.kubeconfig, data, 0o600); err != nil {
		return fmt.Errorf("testenv: %w", err)
	}
	return nil
}

// Config returns a new admin (system:masters) configuration for the API server; callers may modify it.
// Its rate limits are raised well above client defaults so tests are not throttled.
func (e *Environment) Config() *rest.Config {
	return e.configFor(e.admin)
}

func (e *Environment) configFor(client keyPair) *rest.Config {
	return &rest.Config{
		Host: e.host,
		TLSClientConfig: rest.TLSClientConfig{
			CAData:   append([]byte(nil), e.ca.certPEM...),
			CertData: append([]byte(nil), client.certPEM...),
			KeyData:  append([]byte(nil), client.keyPEM...),
		},
		QPS:   1000,
		Burst: 2000,
	}
}

// KubeconfigPath is the path of a kubeconfig file holding the admin configuration; it is removed by Stop.
func (e *Environment) KubeconfigPath() string { return e.kubeconfig }

// AddUser returns a configuration that authenticates as user name in groups through a client certificate.
// The user starts with only the permissions RBAC gives every authenticated user (such as discovery);
// bind roles to the name or a group, or include "system:masters" in groups for full access. With no
// controller-manager running, the aggregated ClusterRoles (admin, edit, view) have no rules.
func (e *Environment) AddUser(name string, groups []string) (*rest.Config, error) {
	if name == "" {
		return nil, errors.New("testenv: AddUser needs a user name")
	}
	pair, err := e.ca.clientPair(name, groups)
	if err != nil {
		return nil, err
	}
	return e.configFor(pair), nil
}

// Restart shuts the API server down gracefully and starts it again on the same address with the same data,
// returning once it is ready. Configurations obtained earlier keep working; etcd is left running.
func (e *Environment) Restart(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped {
		return errors.New("testenv: Restart after Stop")
	}
	if err := e.apiserver.stop(restartGrace); err != nil {
		return err
	}
	if err := appendLine(e.apiserver.logPath, "--- testenv: restarting kube-apiserver ---"); err != nil {
		return err
	}
	if err := e.apiserver.start(); err != nil {
		return err
	}
	return e.waitReady(ctx)
}

// Stop kills the processes Start began and removes the environment's directory. It is safe to call more
// than once, and on a nil Environment.
func (e *Environment) Stop() error {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped {
		return nil
	}
	e.stopped = true
	var errs []error
	for _, p := range []*process{e.apiserver, e.etcd} {
		if p != nil {
			errs = append(errs, p.stop(0)) // the data is thrown away, so there is nothing to shut down gracefully
		}
	}
	if e.client != nil {
		e.client.CloseIdleConnections()
	}
	errs = append(errs, e.stopWebhooks())
	return errors.Join(append(errs, removeAll(e.dir))...)
}

// writeLogTails writes the end of each process log to w.
func (e *Environment) writeLogTails(w io.Writer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range []*process{e.etcd, e.apiserver} {
		fmt.Fprintf(w, "testenv: %s log\n%s", p.name, p.logTail(logTailLines))
	}
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("testenv: %w", err)
	}
	_, err = fmt.Fprintln(f, line)
	return errors.Join(err, f.Close())
}

func removeAll(paths ...string) error {
	var errs []error
	for _, path := range paths {
		if err := os.RemoveAll(path); err != nil {
			errs = append(errs, fmt.Errorf("testenv: %w", err))
		}
	}
	return errors.Join(errs...)
}
