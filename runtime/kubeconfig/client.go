package kubeconfig

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// ConfigOverrides replace parts of the loaded kubeconfig, typically from command-line flags.
type ConfigOverrides struct {
	// CurrentContext selects a context instead of the file's current-context.
	CurrentContext string
	// Context overrides the cluster, user or namespace of the selected context.
	Context Context
	// ClusterInfo overrides the server and TLS settings of the selected cluster (non-empty fields only).
	ClusterInfo Cluster
	// AuthInfo overrides the token of the selected user (non-empty fields only).
	AuthInfo AuthInfo
	// Timeout is a per-request timeout such as "30s"; empty means none.
	Timeout string
}

// ClientConfig turns a kubeconfig plus overrides into a rest.Config and a namespace.
type ClientConfig interface {
	// RawConfig returns the merged kubeconfig without overrides applied.
	RawConfig() (Config, error)
	// ClientConfig returns a rest.Config for the selected context.
	ClientConfig() (*rest.Config, error)
	// Namespace returns the namespace of the selected context ("default" when unset) and whether it was overridden.
	Namespace() (string, bool, error)
}

// DirectClientConfig is a ClientConfig over an already loaded Config.
type DirectClientConfig struct {
	config      Config
	contextName string
	overrides   *ConfigOverrides
	sources     []string
}

// NewNonInteractiveClientConfig returns a ClientConfig for config using contextName (or its current context).
func NewNonInteractiveClientConfig(config Config, contextName string, overrides *ConfigOverrides) ClientConfig {
	if overrides == nil {
		overrides = &ConfigOverrides{}
	}
	return &DirectClientConfig{config: config, contextName: contextName, overrides: overrides}
}

// RawConfig returns the kubeconfig.
func (c *DirectClientConfig) RawConfig() (Config, error) { return c.config, nil }

// sourcesText names where the kubeconfig came from, for errors.
func (c *DirectClientConfig) sourcesText() string {
	if len(c.sources) == 0 {
		return "the kubeconfig"
	}
	return "kubeconfig " + strings.Join(c.sources, string(os.PathListSeparator))
}

func origin(location string) string {
	if location == "" {
		return ""
	}
	return " (in " + location + ")"
}

// resolved is the context, cluster and user chosen after overrides.
type resolved struct {
	contextName string
	context     Context
	clusterName string
	cluster     Cluster
	userName    string
	user        AuthInfo
}

func (c *DirectClientConfig) resolve() (*resolved, error) {
	r := &resolved{contextName: c.contextName}
	if c.overrides.CurrentContext != "" {
		r.contextName = c.overrides.CurrentContext
	}
	if r.contextName == "" {
		r.contextName = c.config.CurrentContext
	}
	if r.contextName != "" {
		ctx, ok := c.config.Contexts[r.contextName]
		if !ok {
			return nil, fmt.Errorf("context %q does not exist in %s", r.contextName, c.sourcesText())
		}
		r.context = *ctx
	} else if c.overrides.ClusterInfo.Server == "" && c.overrides.Context.Cluster == "" {
		return nil, fmt.Errorf("no current context is set in %s and no context was given", c.sourcesText())
	}
	if v := c.overrides.Context.Cluster; v != "" {
		r.context.Cluster = v
	}
	if v := c.overrides.Context.AuthInfo; v != "" {
		r.context.AuthInfo = v
	}
	if v := c.overrides.Context.Namespace; v != "" {
		r.context.Namespace = v
	}
	r.clusterName, r.userName = r.context.Cluster, r.context.AuthInfo
	if r.clusterName != "" {
		cl, ok := c.config.Clusters[r.clusterName]
		if !ok {
			return nil, fmt.Errorf("context %q%s refers to cluster %q, which is not defined in %s", r.contextName, origin(r.context.LocationOfOrigin), r.clusterName, c.sourcesText())
		}
		r.cluster = *cl
	}
	if r.userName != "" {
		u, ok := c.config.AuthInfos[r.userName]
		if !ok {
			return nil, fmt.Errorf("context %q%s refers to user %q, which is not defined in %s", r.contextName, origin(r.context.LocationOfOrigin), r.userName, c.sourcesText())
		}
		r.user = *u
	}
	applyClusterOverrides(&r.cluster, c.overrides.ClusterInfo)
	if c.overrides.AuthInfo.Token != "" {
		r.user.Token, r.user.TokenFile = c.overrides.AuthInfo.Token, ""
	}
	return r, nil
}

func applyClusterOverrides(cl *Cluster, o Cluster) {
	if o.Server != "" {
		cl.Server = o.Server
	}
	if o.TLSServerName != "" {
		cl.TLSServerName = o.TLSServerName
	}
	if o.CertificateAuthority != "" {
		cl.CertificateAuthority, cl.CertificateAuthorityData = o.CertificateAuthority, nil
	}
	if o.InsecureSkipTLSVerify {
		cl.InsecureSkipTLSVerify = true
		cl.CertificateAuthority, cl.CertificateAuthorityData = "", nil
	}
	if o.ProxyURL != "" {
		cl.ProxyURL = o.ProxyURL
	}
}

// ClientConfig returns the rest.Config of the selected context, validating it first.
func (c *DirectClientConfig) ClientConfig() (*rest.Config, error) {
	r, err := c.resolve()
	if err != nil {
		return nil, err
	}
	clusterDesc := fmt.Sprintf("cluster %q%s", r.clusterName, origin(r.cluster.LocationOfOrigin))
	userDesc := fmt.Sprintf("user %q%s", r.userName, origin(r.user.LocationOfOrigin))
	if err := validateCluster(r.cluster, clusterDesc); err != nil {
		return nil, err
	}
	if err := validateUser(r.user, userDesc); err != nil {
		return nil, err
	}
	cfg := &rest.Config{
		Host:                  r.cluster.Server,
		DisableCompression:    r.cluster.DisableCompression,
		MinConnectionPoolSize: int(r.cluster.MinConnectionPoolSize),
		TLSClientConfig: rest.TLSClientConfig{
			Insecure:   r.cluster.InsecureSkipTLSVerify,
			ServerName: r.cluster.TLSServerName,
			CAFile:     r.cluster.CertificateAuthority,
			CAData:     r.cluster.CertificateAuthorityData,
			CertFile:   r.user.ClientCertificate,
			CertData:   r.user.ClientCertificateData,
			KeyFile:    r.user.ClientKey,
			KeyData:    r.user.ClientKeyData,
		},
		BearerToken:     r.user.Token,
		BearerTokenFile: r.user.TokenFile,
		Username:        r.user.Username,
		Password:        r.user.Password,
		Impersonate: rest.ImpersonationConfig{
			UserName: r.user.Impersonate,
			UID:      r.user.ImpersonateUID,
			Groups:   r.user.ImpersonateGroups,
			Extra:    r.user.ImpersonateUserExtra,
		},
	}
	if len(cfg.CAData) > 0 {
		cfg.CAFile = ""
	}
	if len(cfg.CertData) > 0 {
		cfg.CertFile = ""
	}
	if len(cfg.KeyData) > 0 {
		cfg.KeyFile = ""
	}
	if r.cluster.ProxyURL != "" {
		u, err := url.Parse(r.cluster.ProxyURL)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("%s: proxy-url is not a valid URL", clusterDesc)
		}
		switch u.Scheme {
		case "http", "https", "socks5":
		default:
			return nil, fmt.Errorf("%s: proxy-url scheme %q is not supported (use http, https or socks5)", clusterDesc, u.Scheme)
		}
		cfg.Proxy = http.ProxyURL(u)
	}
	if e := r.user.Exec; e != nil {
		cfg.ExecProvider = &rest.ExecConfig{
			Command:            e.Command,
			Args:               e.Args,
			APIVersion:         e.APIVersion,
			InstallHint:        e.InstallHint,
			ProvideClusterInfo: e.ProvideClusterInfo,
			InteractiveMode:    rest.ExecInteractiveMode(e.InteractiveMode),
		}
		for _, v := range e.Env {
			cfg.ExecProvider.Env = append(cfg.ExecProvider.Env, rest.ExecEnvVar{Name: v.Name, Value: v.Value})
		}
	}
	if c.overrides.Timeout != "" && c.overrides.Timeout != "0" {
		d, err := time.ParseDuration(c.overrides.Timeout)
		if err != nil {
			return nil, fmt.Errorf("invalid request timeout %q: must be a duration such as 30s", c.overrides.Timeout)
		}
		cfg.Timeout = d
	}
	return cfg, nil
}

// validateCluster checks a cluster entry; errors name the cluster and its file, never secrets.
// maxMinConnectionPoolSize is the largest min-connection-pool-size a cluster may ask for.
const maxMinConnectionPoolSize = 100

func validateCluster(cl Cluster, desc string) error {
	if cl.Server == "" {
		return fmt.Errorf("%s has no server", desc)
	}
	u, err := url.Parse(cl.Server)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("%s: server %q is not an http(s) URL", desc, cl.Server)
	}
	hasCA := cl.CertificateAuthority != "" || len(cl.CertificateAuthorityData) > 0
	if cl.InsecureSkipTLSVerify && hasCA {
		return fmt.Errorf("%s: insecure-skip-tls-verify cannot be combined with a certificate authority", desc)
	}
	if cl.MinConnectionPoolSize < 0 || cl.MinConnectionPoolSize > maxMinConnectionPoolSize {
		return fmt.Errorf("%s: min-connection-pool-size %d must be between 0 and %d", desc, cl.MinConnectionPoolSize, maxMinConnectionPoolSize)
	}
	if cl.CertificateAuthority != "" && len(cl.CertificateAuthorityData) == 0 {
		if _, err := os.Stat(cl.CertificateAuthority); err != nil {
			return fmt.Errorf("%s: unable to read certificate-authority %s: %w", desc, cl.CertificateAuthority, unwrapPathError(err))
		}
	}
	return nil
}

// validateUser checks a user entry; errors name the user and its file, never credentials.
func validateUser(u AuthInfo, desc string) error {
	if u.AuthProvider != nil {
		return fmt.Errorf("%s: auth-provider %q is not supported; use an exec credential plugin instead", desc, u.AuthProvider.Name)
	}
	hasToken := u.Token != "" || u.TokenFile != ""
	hasBasic := u.Username != "" || u.Password != ""
	if hasToken && hasBasic {
		return fmt.Errorf("%s: a token and a username/password cannot both be set", desc)
	}
	if u.Exec != nil && (hasToken || hasBasic) {
		return fmt.Errorf("%s: exec cannot be combined with a token or a username/password", desc)
	}
	if u.Exec != nil {
		if u.Exec.Command == "" {
			return fmt.Errorf("%s: exec needs a command", desc)
		}
		switch u.Exec.APIVersion {
		case rest.ExecCredentialV1, rest.ExecCredentialV1beta1:
		case "":
			return fmt.Errorf("%s: exec needs an apiVersion (%s or %s)", desc, rest.ExecCredentialV1, rest.ExecCredentialV1beta1)
		default:
			return fmt.Errorf("%s: exec apiVersion %q is not supported (use %s or %s)", desc, u.Exec.APIVersion, rest.ExecCredentialV1, rest.ExecCredentialV1beta1)
		}
		switch rest.ExecInteractiveMode(u.Exec.InteractiveMode) {
		case "", rest.NeverExecInteractiveMode, rest.IfAvailableExecInteractiveMode, rest.AlwaysExecInteractiveMode:
		default:
			return fmt.Errorf("%s: exec interactiveMode %q is not one of Never, IfAvailable, Always", desc, u.Exec.InteractiveMode)
		}
	}
	hasCert := u.ClientCertificate != "" || len(u.ClientCertificateData) > 0
	hasKey := u.ClientKey != "" || len(u.ClientKeyData) > 0
	if hasCert != hasKey {
		return fmt.Errorf("%s: client-certificate and client-key must be given together", desc)
	}
	for _, f := range []struct{ what, path string }{
		{"client-certificate", u.ClientCertificate}, {"client-key", u.ClientKey}, {"tokenFile", u.TokenFile},
	} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			return fmt.Errorf("%s: unable to read %s %s: %w", desc, f.what, f.path, unwrapPathError(err))
		}
	}
	return nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Namespace returns the namespace of the selected context, "default" when unset.
func (c *DirectClientConfig) Namespace() (string, bool, error) {
	if ns := c.overrides.Context.Namespace; ns != "" {
		return ns, true, nil
	}
	r, err := c.resolve()
	if err != nil {
		return "", false, err
	}
	if r.context.Namespace == "" {
		return "default", false, nil
	}
	return r.context.Namespace, false, nil
}

// DeferredLoadingClientConfig loads kubeconfig files on first use.
type DeferredLoadingClientConfig struct {
	rules     *ClientConfigLoadingRules
	overrides *ConfigOverrides

	once   sync.Once
	client *DirectClientConfig
	err    error
}

// NewNonInteractiveDeferredLoadingClientConfig returns a ClientConfig that loads with rules when first used.
func NewNonInteractiveDeferredLoadingClientConfig(rules *ClientConfigLoadingRules, overrides *ConfigOverrides) ClientConfig {
	if overrides == nil {
		overrides = &ConfigOverrides{}
	}
	return &DeferredLoadingClientConfig{rules: rules, overrides: overrides}
}

func (d *DeferredLoadingClientConfig) load() (*DirectClientConfig, error) {
	d.once.Do(func() {
		cfg, err := d.rules.Load()
		if err != nil && !(errors.Is(err, ErrEmptyConfig) && d.overrides.ClusterInfo.Server != "") {
			d.err = err
			return
		}
		d.client = &DirectClientConfig{config: *cfg, overrides: d.overrides, sources: d.rules.Files()}
	})
	return d.client, d.err
}

// RawConfig returns the merged kubeconfig.
func (d *DeferredLoadingClientConfig) RawConfig() (Config, error) {
	c, err := d.load()
	if err != nil {
		return Config{}, err
	}
	return c.RawConfig()
}

// ClientConfig returns the rest.Config of the selected context.
func (d *DeferredLoadingClientConfig) ClientConfig() (*rest.Config, error) {
	c, err := d.load()
	if err != nil {
		return nil, err
	}
	return c.ClientConfig()
}

// Namespace returns the namespace of the selected context.
func (d *DeferredLoadingClientConfig) Namespace() (string, bool, error) {
	if ns := d.overrides.Context.Namespace; ns != "" {
		return ns, true, nil
	}
	c, err := d.load()
	if errors.Is(err, ErrEmptyConfig) {
		if ns, ok := inClusterNamespace(); ok {
			return ns, false, nil
		}
	}
	if err != nil {
		return "", false, err
	}
	return c.Namespace()
}

// serviceAccountNamespaceFile holds the namespace of a pod's service account.
const serviceAccountNamespaceFile = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"

// inClusterNamespace returns the pod's namespace from $POD_NAMESPACE or the service account, when in a pod.
func inClusterNamespace() (string, bool) {
	if ns := os.Getenv("POD_NAMESPACE"); ns != "" {
		return ns, true
	}
	if data, err := os.ReadFile(serviceAccountNamespaceFile); err == nil {
		if ns := strings.TrimSpace(string(data)); ns != "" {
			return ns, true
		}
	}
	return "", false
}

// inClusterConfig is rest.InClusterConfig; tests replace it to simulate running in a pod.
var inClusterConfig = rest.InClusterConfig

// BuildConfigFromFlags returns a rest.Config from a server URL and/or kubeconfig path, either of which may
// be empty. With both empty it tries the in-cluster config, then the default loading rules.
func BuildConfigFromFlags(masterURL, kubeconfigPath string) (*rest.Config, error) {
	if masterURL == "" && kubeconfigPath == "" {
		if cfg, err := inClusterConfig(); err == nil {
			return cfg, nil
		}
	}
	rules := NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = kubeconfigPath
	return NewNonInteractiveDeferredLoadingClientConfig(rules, &ConfigOverrides{ClusterInfo: Cluster{Server: masterURL}}).ClientConfig()
}

// NewClientConfigFromBytes returns a ClientConfig for kubeconfig YAML, using its current context.
func NewClientConfigFromBytes(configBytes []byte) (ClientConfig, error) {
	cfg, err := Load(configBytes)
	if err != nil {
		return nil, err
	}
	return NewNonInteractiveClientConfig(*cfg, "", nil), nil
}

// RESTConfigFromKubeConfig returns the rest.Config of the current context of kubeconfig YAML.
func RESTConfigFromKubeConfig(configBytes []byte) (*rest.Config, error) {
	cc, err := NewClientConfigFromBytes(configBytes)
	if err != nil {
		return nil, err
	}
	return cc.ClientConfig()
}

// InClusterOrKubeconfig returns a rest.Config the way controllers usually want one: an explicit kubeconfig
// (rules.ExplicitPath or $KUBECONFIG) first, then the in-cluster service account when running in a pod,
// then ~/.kube/config. A nil rules means the default rules.
func InClusterOrKubeconfig(rules *ClientConfigLoadingRules, overrides *ConfigOverrides) (*rest.Config, error) {
	if rules == nil {
		rules = NewDefaultClientConfigLoadingRules()
	}
	if rules.ExplicitPath == "" && os.Getenv(RecommendedConfigPathEnvVar) == "" {
		cfg, err := inClusterConfig()
		if err == nil {
			if overrides != nil && overrides.Timeout != "" {
				d, err := time.ParseDuration(overrides.Timeout)
				if err != nil {
					return nil, fmt.Errorf("invalid request timeout %q: must be a duration such as 30s", overrides.Timeout)
				}
				cfg.Timeout = d
			}
			return cfg, nil
		}
		if !errors.Is(err, rest.ErrNotInCluster) {
			return nil, err
		}
	}
	return NewNonInteractiveDeferredLoadingClientConfig(rules, overrides).ClientConfig()
}
