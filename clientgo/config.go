package clientgo

import (
	"errors"
	"fmt"
	"slices"

	"k8s.io/client-go/kubernetes"
	clientgorest "k8s.io/client-go/rest"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// RESTConfig returns a client-go rest.Config that reaches the same server with the same
// credentials, TLS settings, exec credential plugin, rate limits, timeouts and transport hooks as
// c. Slices and maps are copied; the rate limiter, warning handlers, serializer, dialer, proxy
// and transport functions are shared, as client-go's CopyConfig shares them. Every field of a kgen
// config has a client-go v0.37 counterpart but MinConnectionPoolSize (client-go 1.38's), which only
// spreads requests over more connections: the client-go config uses one pool. A nil c gives nil.
func RESTConfig(c *rest.Config) *clientgorest.Config {
	if c == nil {
		return nil
	}
	out := &clientgorest.Config{
		Host:    c.Host,
		APIPath: c.APIPath,
		ContentConfig: clientgorest.ContentConfig{
			AcceptContentTypes:   c.AcceptContentTypes,
			ContentType:          c.ContentType,
			GroupVersion:         copyPtr(c.GroupVersion),
			NegotiatedSerializer: c.NegotiatedSerializer,
		},
		Username:        c.Username,
		Password:        c.Password,
		BearerToken:     c.BearerToken,
		BearerTokenFile: c.BearerTokenFile,
		Impersonate: clientgorest.ImpersonationConfig{
			UserName: c.Impersonate.UserName,
			UID:      c.Impersonate.UID,
			Groups:   slices.Clone(c.Impersonate.Groups),
			Extra:    cloneExtra(c.Impersonate.Extra),
		},
		AuthConfigPersister: c.AuthConfigPersister,
		TLSClientConfig: clientgorest.TLSClientConfig{
			Insecure:   c.Insecure,
			ServerName: c.ServerName,
			CertFile:   c.CertFile,
			KeyFile:    c.KeyFile,
			CAFile:     c.CAFile,
			CertData:   slices.Clone(c.CertData),
			KeyData:    slices.Clone(c.KeyData),
			CAData:     slices.Clone(c.CAData),
			NextProtos: slices.Clone(c.NextProtos),
		},
		UserAgent:                 c.UserAgent,
		DisableCompression:        c.DisableCompression,
		Transport:                 c.Transport,
		WrapTransport:             c.WrapTransport,
		QPS:                       c.QPS,
		Burst:                     c.Burst,
		RateLimiter:               c.RateLimiter,
		WarningHandler:            c.WarningHandler,
		WarningHandlerWithContext: c.WarningHandlerWithContext,
		Timeout:                   c.Timeout,
		Dial:                      c.Dial,
		Proxy:                     c.Proxy,
	}
	if c.AuthProvider != nil {
		out.AuthProvider = &clientcmdapi.AuthProviderConfig{Name: c.AuthProvider.Name, Config: cloneMap(c.AuthProvider.Config)}
	}
	if e := c.ExecProvider; e != nil {
		out.ExecProvider = &clientcmdapi.ExecConfig{
			Command:                 e.Command,
			Args:                    slices.Clone(e.Args),
			APIVersion:              e.APIVersion,
			InstallHint:             e.InstallHint,
			ProvideClusterInfo:      e.ProvideClusterInfo,
			InteractiveMode:         clientcmdapi.ExecInteractiveMode(e.InteractiveMode),
			StdinUnavailable:        e.StdinUnavailable,
			StdinUnavailableMessage: e.StdinUnavailableMessage,
		}
		for _, v := range e.Env {
			out.ExecProvider.Env = append(out.ExecProvider.Env, clientcmdapi.ExecEnvVar{Name: v.Name, Value: v.Value})
		}
	}
	return out
}

// FromRESTConfig returns a kgen rest.Config equal to the client-go config c, copying and sharing
// as RESTConfig does. It fails, rather than drop a setting, when c's exec credential plugin carries
// cluster extension data (ExecConfig.Config) or a plugin policy other than allowing all
// (ExecConfig.PluginPolicy), which kgen's exec support has no place for. A nil c gives nil.
func FromRESTConfig(c *clientgorest.Config) (*rest.Config, error) {
	if c == nil {
		return nil, nil
	}
	out := &rest.Config{
		Host:    c.Host,
		APIPath: c.APIPath,
		ContentConfig: rest.ContentConfig{
			AcceptContentTypes:   c.AcceptContentTypes,
			ContentType:          c.ContentType,
			GroupVersion:         copyPtr(c.GroupVersion),
			NegotiatedSerializer: c.NegotiatedSerializer,
		},
		Username:        c.Username,
		Password:        c.Password,
		BearerToken:     c.BearerToken,
		BearerTokenFile: c.BearerTokenFile,
		Impersonate: rest.ImpersonationConfig{
			UserName: c.Impersonate.UserName,
			UID:      c.Impersonate.UID,
			Groups:   slices.Clone(c.Impersonate.Groups),
			Extra:    cloneExtra(c.Impersonate.Extra),
		},
		AuthConfigPersister: c.AuthConfigPersister,
		TLSClientConfig: rest.TLSClientConfig{
			Insecure:   c.Insecure,
			ServerName: c.ServerName,
			CertFile:   c.CertFile,
			KeyFile:    c.KeyFile,
			CAFile:     c.CAFile,
			CertData:   slices.Clone(c.CertData),
			KeyData:    slices.Clone(c.KeyData),
			CAData:     slices.Clone(c.CAData),
			NextProtos: slices.Clone(c.NextProtos),
		},
		UserAgent:                 c.UserAgent,
		DisableCompression:        c.DisableCompression,
		Transport:                 c.Transport,
		WrapTransport:             c.WrapTransport,
		QPS:                       c.QPS,
		Burst:                     c.Burst,
		RateLimiter:               c.RateLimiter,
		WarningHandler:            c.WarningHandler,
		WarningHandlerWithContext: c.WarningHandlerWithContext,
		Timeout:                   c.Timeout,
		Dial:                      c.Dial,
		Proxy:                     c.Proxy,
	}
	if c.AuthProvider != nil {
		out.AuthProvider = &rest.AuthProviderConfig{Name: c.AuthProvider.Name, Config: cloneMap(c.AuthProvider.Config)}
	}
	if e := c.ExecProvider; e != nil {
		if e.Config != nil {
			return nil, fmt.Errorf("clientgo: exec credential plugin %q has cluster extension data (ExecConfig.Config), which kgen's rest.ExecConfig cannot carry", e.Command)
		}
		if p := e.PluginPolicy; p.PolicyType != "" && p.PolicyType != clientcmdapi.PluginPolicyAllowAll || len(p.Allowlist) > 0 {
			return nil, fmt.Errorf("clientgo: exec credential plugin %q is restricted by plugin policy %q, which kgen does not enforce", e.Command, p.PolicyType)
		}
		out.ExecProvider = &rest.ExecConfig{
			Command:                 e.Command,
			Args:                    slices.Clone(e.Args),
			APIVersion:              e.APIVersion,
			InstallHint:             e.InstallHint,
			ProvideClusterInfo:      e.ProvideClusterInfo,
			InteractiveMode:         rest.ExecInteractiveMode(e.InteractiveMode),
			StdinUnavailable:        e.StdinUnavailable,
			StdinUnavailableMessage: e.StdinUnavailableMessage,
		}
		for _, v := range e.Env {
			out.ExecProvider.Env = append(out.ExecProvider.Env, rest.ExecEnvVar{Name: v.Name, Value: v.Value})
		}
	}
	return out, nil
}

// NewClientset returns a client-go clientset for the server and credentials of the kgen config
// c, for libraries that take a kubernetes.Interface.
func NewClientset(c *rest.Config) (*kubernetes.Clientset, error) {
	if c == nil {
		return nil, errors.New("clientgo: NewClientset needs a config, got nil")
	}
	return kubernetes.NewForConfig(RESTConfig(c))
}

func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func cloneExtra(m map[string][]string) map[string][]string {
	if m == nil {
		return nil
	}
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}
