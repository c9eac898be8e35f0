package rest

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"time"

	"golang.org/x/term"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/rest/metrics"
)

// Exec credential API versions understood by kgen.
const (
	ExecCredentialV1      = "client.authentication.k8s.io/v1"
	ExecCredentialV1beta1 = "client.authentication.k8s.io/v1beta1"
)

// execCredential is the client.authentication.k8s.io ExecCredential object exchanged with a plugin.
type execCredential struct {
	APIVersion string               `json:"apiVersion"`
	Kind       string               `json:"kind"`
	Spec       execCredentialSpec   `json:"spec"`
	Status     *execCredentialState `json:"status,omitempty"`
}

type execCredentialSpec struct {
	Cluster     *execCluster `json:"cluster,omitempty"`
	Interactive bool         `json:"interactive"`
}

type execCluster struct {
	Server                   string `json:"server"`
	TLSServerName            string `json:"tls-server-name,omitempty"`
	InsecureSkipTLSVerify    bool   `json:"insecure-skip-tls-verify,omitempty"`
	CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
}

type execCredentialState struct {
	ExpirationTimestamp   *time.Time `json:"expirationTimestamp,omitempty"`
	Token                 string     `json:"token,omitempty"`
	ClientCertificateData string     `json:"clientCertificateData,omitempty"`
	ClientKeyData         string     `json:"clientKeyData,omitempty"`
}

// execCreds are credentials returned by a plugin run.
type execCreds struct {
	token   string
	cert    *tls.Certificate
	expires time.Time
}

func (c *execCreds) valid(now time.Time) bool {
	return c != nil && (c.expires.IsZero() || now.Before(c.expires))
}

// execAuthenticator runs an exec credential plugin, caches what it prints until expirationTimestamp,
// and re-runs it when the server answers 401.
type execAuthenticator struct {
	cfg     ExecConfig
	cluster *execCluster
	stdin   io.Reader
	stderr  io.Writer
	now     func() time.Time
	wrapped

	cache *credentialCache

	// lastCert is the client certificate this authenticator's connections were made with.
	lastCert *tls.Certificate
	// fallbackCert supplies the configured client certificate when the plugin returns only a token.
	fallbackCert func(*tls.CertificateRequestInfo) (*tls.Certificate, error)
}

// credentialCache holds the credentials of one plugin configuration. It is shared by every transport
// built from an identical exec configuration and cluster, so a process runs the plugin once, not once
// per client.
type credentialCache struct {
	mu    sync.Mutex
	creds *execCreds
}

var (
	credentialCachesMu sync.Mutex
	credentialCaches   = map[string]*credentialCache{}
)

// sharedCredentialCache returns the cache for the plugin configuration cfg talking to cluster.
func sharedCredentialCache(cfg ExecConfig, cluster *execCluster) *credentialCache {
	key, _ := json.Marshal(struct {
		Exec    ExecConfig
		Cluster *execCluster
	}{cfg, cluster})
	credentialCachesMu.Lock()
	defer credentialCachesMu.Unlock()
	c, ok := credentialCaches[string(key)]
	if !ok {
		c = &credentialCache{}
		credentialCaches[string(key)] = c
	}
	return c
}

func newExecAuthenticator(config *Config) (*execAuthenticator, error) {
	cfg := *config.ExecProvider
	switch cfg.APIVersion {
	case ExecCredentialV1:
		if cfg.InteractiveMode == "" {
			return nil, fmt.Errorf("exec plugin %q: interactiveMode must be set for %s", cfg.Command, ExecCredentialV1)
		}
	case ExecCredentialV1beta1:
		if cfg.InteractiveMode == "" {
			cfg.InteractiveMode = IfAvailableExecInteractiveMode
		}
	default:
		return nil, fmt.Errorf("exec plugin %q: apiVersion %q is not supported (use %s or %s)", cfg.Command, cfg.APIVersion, ExecCredentialV1, ExecCredentialV1beta1)
	}
	switch cfg.InteractiveMode {
	case NeverExecInteractiveMode, IfAvailableExecInteractiveMode, AlwaysExecInteractiveMode:
	default:
		return nil, fmt.Errorf("exec plugin %q: invalid interactiveMode %q", cfg.Command, cfg.InteractiveMode)
	}
	if cfg.Command == "" {
		return nil, fmt.Errorf("exec plugin: command must be set")
	}
	a := &execAuthenticator{cfg: cfg, stdin: os.Stdin, stderr: os.Stderr, now: time.Now}
	if cfg.ProvideClusterInfo {
		ca, err := caBytes(config)
		if err != nil {
			return nil, err
		}
		a.cluster = &execCluster{
			Server:                   config.Host,
			TLSServerName:            config.ServerName,
			InsecureSkipTLSVerify:    config.Insecure,
			CertificateAuthorityData: ca,
		}
	}
	a.cache = sharedCredentialCache(a.cfg, a.cluster)
	return a, nil
}

func caBytes(config *Config) ([]byte, error) {
	if len(config.CAData) > 0 || config.CAFile == "" {
		return config.CAData, nil
	}
	return dataFromSliceOrFile(nil, config.CAFile, "CA")
}

// stdinIsTerminal reports whether standard input is an interactive terminal (not, say, /dev/null).
func stdinIsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// credentials returns cached credentials, running the plugin when there are none or they expired.
func (a *execAuthenticator) credentials() (*execCreds, error) {
	a.cache.mu.Lock()
	defer a.cache.mu.Unlock()
	creds := a.cache.creds
	if !creds.valid(a.now()) {
		fresh, err := a.run()
		if err != nil {
			return nil, err
		}
		a.cache.creds, creds = fresh, fresh
	}
	if creds.cert != nil && a.lastCert != creds.cert {
		if a.lastCert != nil {
			// Pooled connections still present the old certificate; drop the idle ones.
			a.CloseIdleConnections()
		}
		a.lastCert = creds.cert
	}
	return creds, nil
}

// invalidate drops the cached credentials if they are still the ones that were rejected.
func (a *execAuthenticator) invalidate(rejected *execCreds) {
	a.cache.mu.Lock()
	defer a.cache.mu.Unlock()
	if a.cache.creds == rejected {
		a.cache.creds = nil
	}
}

func (a *execAuthenticator) run() (*execCreds, error) {
	interactive := false
	switch a.cfg.InteractiveMode {
	case AlwaysExecInteractiveMode:
		if a.cfg.StdinUnavailable || !stdinIsTerminal(a.stdin) {
			msg := "standard input is not a terminal"
			if a.cfg.StdinUnavailable && a.cfg.StdinUnavailableMessage != "" {
				msg = a.cfg.StdinUnavailableMessage
			}
			return nil, fmt.Errorf("exec plugin %q needs interactive standard input but it is unavailable: %s", a.cfg.Command, msg)
		}
		interactive = true
	case IfAvailableExecInteractiveMode:
		interactive = !a.cfg.StdinUnavailable && stdinIsTerminal(a.stdin)
	}
	input, err := json.Marshal(execCredential{
		APIVersion: a.cfg.APIVersion,
		Kind:       "ExecCredential",
		Spec:       execCredentialSpec{Cluster: a.cluster, Interactive: interactive},
	})
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(a.cfg.Command, a.cfg.Args...)
	cmd.Env = os.Environ()
	for _, e := range a.cfg.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	cmd.Env = append(cmd.Env, "KUBERNETES_EXEC_INFO="+string(input))
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = a.stderr
	if interactive {
		cmd.Stdin = a.stdin
	}
	err = cmd.Run()
	recordExecCall(err)
	if err != nil {
		return nil, a.runError(err)
	}
	return a.parse(stdout.Bytes())
}

// recordExecCall counts a plugin run by its exit code and outcome.
func recordExecCall(err error) {
	var exitErr *exec.ExitError
	calls := metrics.Registered().ExecPluginCalls
	switch {
	case err == nil:
		calls.Increment(0, "no_error")
	case errors.As(err, &exitErr):
		calls.Increment(exitErr.ExitCode(), "plugin_execution_error")
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist):
		calls.Increment(1, "plugin_not_found_error")
	default:
		calls.Increment(1, "client_internal_error")
	}
}

// runError explains a failed plugin run without quoting its output, which may hold secrets.
func (a *execAuthenticator) runError(err error) error {
	var exitErr *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist):
		msg := fmt.Sprintf("exec plugin: executable %s not found", a.cfg.Command)
		if a.cfg.InstallHint != "" {
			msg += "\n\n" + a.cfg.InstallHint
		}
		return errors.New(msg)
	case errors.As(err, &exitErr):
		return fmt.Errorf("exec plugin %q failed with exit code %d", a.cfg.Command, exitErr.ExitCode())
	default:
		return fmt.Errorf("exec plugin %q could not be run: %w", a.cfg.Command, err)
	}
}

func (a *execAuthenticator) parse(out []byte) (*execCreds, error) {
	var cred execCredential
	if err := json.Unmarshal(out, &cred); err != nil {
		return nil, fmt.Errorf("exec plugin %q printed output that is not an ExecCredential JSON object", a.cfg.Command)
	}
	if cred.APIVersion != a.cfg.APIVersion || cred.Kind != "ExecCredential" {
		return nil, fmt.Errorf("exec plugin %q returned apiVersion %q kind %q, want apiVersion %q kind ExecCredential",
			a.cfg.Command, cred.APIVersion, cred.Kind, a.cfg.APIVersion)
	}
	st := cred.Status
	if st == nil {
		return nil, fmt.Errorf("exec plugin %q returned an ExecCredential without status", a.cfg.Command)
	}
	hasCert, hasKey := st.ClientCertificateData != "", st.ClientKeyData != ""
	if st.Token == "" && !hasCert {
		return nil, fmt.Errorf("exec plugin %q returned neither a token nor a client certificate", a.cfg.Command)
	}
	if hasCert != hasKey {
		return nil, fmt.Errorf("exec plugin %q returned a client certificate without a key or a key without a certificate", a.cfg.Command)
	}
	creds := &execCreds{token: st.Token}
	if st.ExpirationTimestamp != nil {
		creds.expires = *st.ExpirationTimestamp
	}
	if hasCert {
		cert, err := tls.X509KeyPair([]byte(st.ClientCertificateData), []byte(st.ClientKeyData))
		if err != nil {
			return nil, fmt.Errorf("exec plugin %q returned an invalid client certificate/key pair: %w", a.cfg.Command, err)
		}
		creds.cert = &cert
		if cert.Leaf != nil {
			metrics.Registered().ClientCertExpiry.Set(&cert.Leaf.NotAfter)
		}
	}
	klog.V(4).Info("Exec credential plugin returned credentials", "command", a.cfg.Command, "expires", creds.expires)
	return creds, nil
}

// getClientCertificate hands the plugin's client certificate to the TLS handshake.
func (a *execAuthenticator) getClientCertificate(info *tls.CertificateRequestInfo) (*tls.Certificate, error) {
	creds, err := a.credentials()
	if err != nil {
		return nil, err
	}
	switch {
	case creds.cert != nil:
		return creds.cert, nil
	case a.fallbackCert != nil:
		return a.fallbackCert(info)
	}
	return &tls.Certificate{}, nil
}

// RoundTrip adds the plugin's token; on 401 it drops the cached credentials and, when the request
// can be replayed, retries once with fresh ones.
func (a *execAuthenticator) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" {
		return a.next.RoundTrip(req)
	}
	creds, err := a.credentials()
	if err != nil {
		return nil, fmt.Errorf("getting credentials: %w", err)
	}
	resp, err := a.next.RoundTrip(withToken(req, creds.token))
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	a.invalidate(creds)
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return resp, nil
	}
	fresh, err := a.credentials()
	if err != nil {
		return resp, nil
	}
	retry := req
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return resp, nil
		}
		retry = req.Clone(req.Context())
		retry.Body = body
	}
	drainAndClose(resp)
	return a.next.RoundTrip(withToken(retry, fresh.token))
}

func withToken(req *http.Request, token string) *http.Request {
	if token == "" {
		return req
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}
