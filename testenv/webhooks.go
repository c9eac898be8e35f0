package testenv

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// WebhookOptions points the API server at webhooks the test process serves on 127.0.0.1 with a serving
// certificate from the environment's CA (Environment.WebhookServing says where the files are). Setting any
// field enables it.
type WebhookOptions struct {
	// Port is the loopback port the test's webhook server listens on; zero picks a free one.
	Port int
	// Conversions maps the name of a CRD (plural.group) to the path its conversion webhook is served on: when
	// the CRD is installed its spec.conversion becomes the Webhook strategy, review version v1, pointed at the
	// local server. Start refuses names that are not among Options.CRDs. A CRD that already has the Webhook
	// strategy is pointed at the local server too, with the path of its service reference or URL.
	Conversions map[string]string
	// Configurations are admissionregistration.k8s.io/v1 ValidatingWebhookConfigurations and
	// MutatingWebhookConfigurations, in any form InstallCRDs accepts (files, directories, YAML bytes,
	// objects), installed by Start after the CRDs through InstallWebhookConfigurations.
	Configurations []any
}

func (o WebhookOptions) enabled() bool {
	return o.Port != 0 || len(o.Conversions) > 0 || len(o.Configurations) > 0
}

// WebhookServing says where the test's webhook server must listen and which certificate it serves.
type WebhookServing struct {
	// Host and Port are the address the API server calls (Host is 127.0.0.1).
	Host string
	Port int
	// CertDir holds CertName and KeyName, a serving certificate for 127.0.0.1 and localhost signed by the
	// environment's CA, and ca.crt, the CA certificate.
	CertDir, CertName, KeyName string
	// CAData is the environment CA's certificate in PEM, the caBundle of every webhook testenv points here.
	CAData []byte
}

// Addr is Host:Port.
func (s WebhookServing) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// URL is the https URL of path on the test's webhook server.
func (s WebhookServing) URL(path string) string { return "https://" + s.Addr() + path }

// Webhook configuration collections, and the label and webhook name of testenv's probes.
const (
	validatingPath  = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations"
	mutatingPath    = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations"
	probeLabel      = "testenv.kgen.dev/webhook-probe"
	probeWebhook    = "probe.testenv.kgen.dev"
	probeNamespace  = "default"
	webhookCertName = "tls.crt"
	webhookKeyName  = "tls.key"
)

// webhooks is an environment's webhook serving state and its probe server.
type webhooks struct {
	serving WebhookServing
	probe   *http.Server
	probeLn net.Listener

	mu     sync.Mutex
	probed map[string]bool // probe label values the API server has called
}

// setupWebhooks issues the serving certificate, chooses the port and starts the probe server.
func (e *Environment) setupWebhooks() error {
	pair, err := issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "testenv-webhook"},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, &e.ca.keyPair)
	if err != nil {
		return err
	}
	dir := filepath.Join(e.dir, "webhook")
	if err := os.Mkdir(dir, 0o700); err != nil {
		return fmt.Errorf("testenv: %w", err)
	}
	for name, data := range map[string][]byte{webhookCertName: pair.certPEM, webhookKeyName: pair.keyPEM, "ca.crt": e.ca.certPEM} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return fmt.Errorf("testenv: %w", err)
		}
	}
	port := e.opts.Webhooks.Port
	if port == 0 {
		ports, err := freePorts(1)
		if err != nil {
			return err
		}
		port = ports[0]
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("testenv: webhook probe: %w", err)
	}
	w := &webhooks{
		serving: WebhookServing{Host: "127.0.0.1", Port: port, CertDir: dir, CertName: webhookCertName, KeyName: webhookKeyName,
			CAData: append([]byte(nil), e.ca.certPEM...)},
		probeLn: ln,
		probed:  map[string]bool{},
	}
	w.probe = &http.Server{
		Handler:           http.HandlerFunc(w.answerProbe),
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{pair.cert.Raw}, PrivateKey: pair.key}}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() { _ = w.probe.ServeTLS(ln, "", "") }()
	e.webhooks = w
	return nil
}

// stopWebhooks closes the probe server.
func (e *Environment) stopWebhooks() error {
	if e.webhooks == nil {
		return nil
	}
	if err := e.webhooks.probe.Close(); err != nil {
		return fmt.Errorf("testenv: webhook probe: %w", err)
	}
	return nil
}

// answerProbe records which configuration's probe the API server called and denies the dry-run request.
func (w *webhooks) answerProbe(rw http.ResponseWriter, r *http.Request) {
	var review struct {
		Request struct {
			UID    string `json:"uid"`
			Object struct {
				Metadata struct {
					Labels map[string]string `json:"labels"`
				} `json:"metadata"`
			} `json:"object"`
		} `json:"request"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(rw, r.Body, 1<<20)).Decode(&review); err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	label := review.Request.Object.Metadata.Labels[probeLabel]
	w.mu.Lock()
	w.probed[label] = true
	w.mu.Unlock()
	rw.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(rw).Encode(map[string]any{
		"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
		"response": map[string]any{"uid": review.Request.UID, "allowed": false,
			"status": map[string]any{"code": 403, "message": "kgen testenv probe " + label}},
	})
}

func (w *webhooks) wasProbed(label string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.probed[label]
}

// WebhookServing says where the test's webhook server must listen and which certificate it serves. It is
// the zero value unless Options.Webhooks is set.
func (e *Environment) WebhookServing() WebhookServing {
	if e.webhooks == nil {
		return WebhookServing{}
	}
	s := e.webhooks.serving
	s.CAData = append([]byte(nil), s.CAData...)
	return s
}

// WaitForWebhookServer polls until a server at WebhookServing's address completes a TLS handshake with the
// environment's certificate, bounded by Options.StartTimeout.
func (e *Environment) WaitForWebhookServer(ctx context.Context) error {
	if e.webhooks == nil {
		return errors.New("testenv: WaitForWebhookServer: Options.Webhooks is not set, so no webhook is served")
	}
	ctx, cancel := e.startContext(ctx)
	defer cancel()
	roots := x509.NewCertPool()
	roots.AddCert(e.ca.cert)
	addr := e.webhooks.serving.Addr()
	dialer := &tls.Dialer{Config: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}
	for {
		conn, err := dialer.DialContext(ctx, "tcp", addr)
		if err == nil {
			return conn.Close()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("testenv: no webhook server answers on %s (%v): %v; serve the certificate in %s there",
				addr, context.Cause(ctx), err, e.webhooks.serving.CertDir)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// checkWebhookOptions makes sure every CRD that Options.Webhooks.Conversions names is among Options.CRDs,
// before anything starts.
func checkWebhookOptions(opts Options) error {
	if len(opts.Webhooks.Conversions) == 0 {
		return nil
	}
	var all []crd
	for _, in := range opts.CRDs {
		loaded, err := loadManifests(in, crdKind)
		if err != nil {
			return err
		}
		all = append(all, loaded...)
	}
	return checkConversions(opts.Webhooks.Conversions, all)
}

func checkConversions(conversions map[string]string, crds []crd) error {
	var names []string
	for _, c := range crds {
		names = append(names, c.obj.GetName())
	}
	for name, path := range conversions {
		if !slices.Contains(names, name) {
			slices.Sort(names)
			return fmt.Errorf("testenv: Options.Webhooks.Conversions names CRD %q, which is not among Options.CRDs (%s)",
				name, strings.Join(names, ", "))
		}
		if !strings.HasPrefix(path, "/") {
			return fmt.Errorf("testenv: Options.Webhooks.Conversions: the path of CRD %q, %q, does not start with /", name, path)
		}
	}
	return nil
}

// pointConversion points a CRD's conversion webhook at the local server: the CRDs Conversions names, and
// those that already have the Webhook strategy.
func (e *Environment) pointConversion(c crd) error {
	if e.webhooks == nil {
		return nil
	}
	path, named := e.opts.Webhooks.Conversions[c.obj.GetName()]
	if !named {
		strategy, _, _ := unstructured.NestedString(c.obj.Object, "spec", "conversion", "strategy")
		if strategy != "Webhook" {
			return nil
		}
		config, _, _ := unstructured.NestedMap(c.obj.Object, "spec", "conversion", "webhook", "clientConfig")
		var err error
		if path, err = clientConfigPath(config); err != nil {
			return fmt.Errorf("testenv: %s: CRD %q: conversion webhook: %w", c.source, c.obj.GetName(), err)
		}
	}
	conversion := map[string]any{
		"strategy": "Webhook",
		"webhook": map[string]any{
			"conversionReviewVersions": []any{"v1"},
			"clientConfig":             e.clientConfig(path),
		},
	}
	return unstructured.SetNestedMap(c.obj.Object, conversion, "spec", "conversion")
}

func (e *Environment) clientConfig(path string) map[string]any {
	return map[string]any{
		"url":      e.webhooks.serving.URL(path),
		"caBundle": base64.StdEncoding.EncodeToString(e.ca.certPEM),
	}
}

// clientConfigPath is the path a webhook client configuration names, through its service or its URL.
func clientConfigPath(config map[string]any) (string, error) {
	if service, ok := config["service"].(map[string]any); ok {
		if path, _ := service["path"].(string); path != "" {
			return path, nil
		}
		return "", errors.New("clientConfig.service has no path")
	}
	if raw, _ := config["url"].(string); raw != "" {
		u, err := url.Parse(raw)
		if err != nil {
			return "", fmt.Errorf("clientConfig.url: %w", err)
		}
		if u.Path == "" {
			return "", fmt.Errorf("clientConfig.url %q has no path", raw)
		}
		return u.Path, nil
	}
	return "", errors.New("clientConfig names neither a service nor a url")
}

var webhookConfigurationKind = manifestKind{
	name: "webhook configuration", kind: "ValidatingWebhookConfiguration or MutatingWebhookConfiguration",
	check: checkWebhookConfigurations,
}

// checkWebhookConfigurations accepts v1 validating and mutating webhook configurations, or lists of them.
func checkWebhookConfigurations(obj *unstructured.Unstructured, source string) ([]crd, error) {
	if obj.IsList() {
		list, err := obj.ToList()
		if err != nil {
			return nil, fmt.Errorf("testenv: %s: %w", source, err)
		}
		var all []crd
		for i := range list.Items {
			loaded, err := checkWebhookConfigurations(&list.Items[i], fmt.Sprintf("%s, item %d", source, i))
			if err != nil {
				return nil, err
			}
			all = append(all, loaded...)
		}
		return all, nil
	}
	gvk := obj.GroupVersionKind()
	if gvk.Group != "admissionregistration.k8s.io" || (gvk.Kind != "ValidatingWebhookConfiguration" && gvk.Kind != "MutatingWebhookConfiguration") {
		return nil, fmt.Errorf("testenv: %s is a %s %q, not a ValidatingWebhookConfiguration or MutatingWebhookConfiguration", source, obj.GetKind(), obj.GetName())
	}
	if gvk.Version != "v1" {
		return nil, fmt.Errorf("testenv: %s: %s %q is %s; testenv installs admissionregistration.k8s.io/v1", source, gvk.Kind, obj.GetName(), obj.GetAPIVersion())
	}
	if obj.GetName() == "" {
		return nil, fmt.Errorf("testenv: %s: %s without a name", source, gvk.Kind)
	}
	return []crd{{obj: obj, source: source}}, nil
}

// InstallWebhookConfigurations creates (or replaces) validating and mutating webhook configurations, with
// every webhook pointed at the test's webhook server (keeping the path of its service reference or URL)
// and trusting the environment's CA, and waits until the API server calls each configuration. Arguments
// take every form InstallCRDs accepts. Each configuration gains a webhook named probe.testenv.kgen.dev that
// only sees dry-run ConfigMaps carrying testenv's probe label and is served by testenv itself: once the API
// server has called it, it calls the configuration's other webhooks too. Options.Webhooks must be set.
func (e *Environment) InstallWebhookConfigurations(ctx context.Context, configurations ...any) error {
	if e.webhooks == nil {
		return errors.New("testenv: InstallWebhookConfigurations: set Options.Webhooks so the environment serves webhooks")
	}
	var all []crd
	for _, in := range configurations {
		loaded, err := loadManifests(in, webhookConfigurationKind)
		if err != nil {
			return err
		}
		all = append(all, loaded...)
	}
	labels := make([]string, len(all))
	for i, c := range all {
		label, err := e.pointWebhooks(c)
		if err != nil {
			return err
		}
		labels[i] = label
	}
	ctx, cancel := e.startContext(ctx)
	defer cancel()
	defer e.client.CloseIdleConnections()
	for _, c := range all {
		collection := validatingPath
		if c.obj.GetKind() == "MutatingWebhookConfiguration" {
			collection = mutatingPath
		}
		if err := e.apply(ctx, collection, c.obj.GetKind(), c); err != nil {
			return err
		}
	}
	for i, c := range all {
		if err := e.waitProbed(ctx, c, labels[i]); err != nil {
			return err
		}
	}
	return nil
}

// pointWebhooks rewrites every webhook's client configuration and adds the probe, returning its label value.
func (e *Environment) pointWebhooks(c crd) (string, error) {
	list, _, _ := unstructured.NestedSlice(c.obj.Object, "webhooks")
	for i, item := range list {
		hook, ok := item.(map[string]any)
		if !ok {
			return "", fmt.Errorf("testenv: %s: %s %q: webhook %d is not an object", c.source, c.obj.GetKind(), c.obj.GetName(), i)
		}
		config, _ := hook["clientConfig"].(map[string]any)
		path, err := clientConfigPath(config)
		if err != nil {
			return "", fmt.Errorf("testenv: %s: %s %q, webhook %q: %w", c.source, c.obj.GetKind(), c.obj.GetName(), hook["name"], err)
		}
		hook["clientConfig"] = e.clientConfig(path)
		if hook["name"] == probeWebhook {
			return "", fmt.Errorf("testenv: %s: %s %q: the webhook name %s is testenv's own", c.source, c.obj.GetKind(), c.obj.GetName(), probeWebhook)
		}
	}
	sum := sha256.Sum256([]byte(c.obj.GetKind() + "/" + c.obj.GetName()))
	label := hex.EncodeToString(sum[:8])
	probe := map[string]any{
		"name":                    probeWebhook,
		"clientConfig":            map[string]any{"url": "https://" + e.webhooks.probeLn.Addr().String() + "/probe", "caBundle": base64.StdEncoding.EncodeToString(e.ca.certPEM)},
		"rules":                   []any{map[string]any{"apiGroups": []any{""}, "apiVersions": []any{"v1"}, "operations": []any{"CREATE"}, "resources": []any{"configmaps"}}},
		"objectSelector":          map[string]any{"matchLabels": map[string]any{probeLabel: label}},
		"sideEffects":             "None",
		"admissionReviewVersions": []any{"v1"},
		"failurePolicy":           "Ignore",
		"timeoutSeconds":          int64(5),
	}
	if c.obj.GetKind() == "MutatingWebhookConfiguration" {
		probe["reinvocationPolicy"] = "Never"
	}
	list = append(list, probe)
	return label, unstructured.SetNestedSlice(c.obj.Object, list, "webhooks")
}

// waitProbed sends dry-run ConfigMaps carrying the configuration's probe label until its probe is called.
func (e *Environment) waitProbed(ctx context.Context, c crd, label string) error {
	last := "no answer yet"
	configMap := map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"generateName": "kgen-testenv-probe-", "labels": map[string]any{probeLabel: label}},
	}
	for !e.webhooks.wasProbed(label) {
		status, body, err := e.do(ctx, http.MethodPost, "/api/v1/namespaces/"+probeNamespace+"/configmaps?dryRun=All", configMap)
		switch {
		case err != nil:
			last = err.Error()
		default:
			last = fmt.Sprintf("%d: %s", status, strings.TrimSpace(string(body)))
		}
		if e.webhooks.wasProbed(label) {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("testenv: the API server does not call %s %q from %s (%v); last dry-run ConfigMap answer: %s",
				c.obj.GetKind(), c.obj.GetName(), c.source, context.Cause(ctx), last)
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}
