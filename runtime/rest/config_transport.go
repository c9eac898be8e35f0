package rest

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"

	"github.com/kgen-dev/kgen/runtime/rest/transport"
)

// DeepCopyInto copies in into out, with copies of its byte and string slices.
func (in *TLSClientConfig) DeepCopyInto(out *TLSClientConfig) {
	*out = *in
	out.CertData = cloneSlice(in.CertData)
	out.KeyData = cloneSlice(in.KeyData)
	out.CAData = cloneSlice(in.CAData)
	out.NextProtos = cloneSlice(in.NextProtos)
}

// DeepCopy returns a deep copy of in, or nil for nil. As in client-go, Config embeds TLSClientConfig,
// so config.DeepCopy() copies only the TLS settings; CopyConfig copies a whole Config.
func (in *TLSClientConfig) DeepCopy() *TLSClientConfig {
	if in == nil {
		return nil
	}
	out := new(TLSClientConfig)
	in.DeepCopyInto(out)
	return out
}

// TransportConfig returns the transport-level view of c: TLS settings, credentials, impersonation,
// user agent, dialer, proxy and transport wrappers. Its slices and maps are c's own. With an exec
// credential plugin, its WrapTransport ends with the layer that adds the plugin's token and its
// TLS.GetCertHolder supplies the plugin's client certificate, as client-go's does. A Config naming an
// auth-provider plugin, which kgen does not have, is an error.
func (c *Config) TransportConfig() (*transport.Config, error) {
	conf := &transport.Config{
		UserAgent:             c.UserAgent,
		Transport:             c.Transport,
		WrapTransport:         c.WrapTransport,
		DisableCompression:    c.DisableCompression,
		MinConnectionPoolSize: c.MinConnectionPoolSize,
		TLS: transport.TLSConfig{
			CAFile:     c.CAFile,
			CAData:     c.CAData,
			CertFile:   c.CertFile,
			KeyFile:    c.KeyFile,
			CertData:   c.CertData,
			KeyData:    c.KeyData,
			ServerName: c.ServerName,
			Insecure:   c.Insecure,
			NextProtos: c.NextProtos,
		},
		Username:        c.Username,
		Password:        c.Password,
		BearerToken:     c.BearerToken,
		BearerTokenFile: c.BearerTokenFile,
		Impersonate: transport.ImpersonationConfig{
			UserName: c.Impersonate.UserName,
			UID:      c.Impersonate.UID,
			Groups:   c.Impersonate.Groups,
			Extra:    c.Impersonate.Extra,
		},
		Proxy: c.Proxy,
	}
	if c.Dial != nil {
		conf.DialHolder = &transport.DialHolder{Dial: c.Dial}
	}
	switch {
	case c.ExecProvider != nil && c.AuthProvider != nil:
		return nil, errors.New("an exec credential plugin and an auth provider cannot be used together")
	case c.AuthProvider != nil:
		return nil, fmt.Errorf("auth provider %q is not supported: kgen has no auth-provider plugins; use an exec credential plugin (ExecProvider) instead", c.AuthProvider.Name)
	case c.ExecProvider != nil:
		if c.BearerToken != "" || c.BearerTokenFile != "" || c.Username != "" {
			return nil, errors.New("exec credential plugin cannot be combined with a bearer token or basic auth")
		}
		a, err := newExecAuthenticator(c)
		if err != nil {
			return nil, err
		}
		conf.TLS.GetCertHolder = &transport.GetCertHolder{GetCert: func() (*tls.Certificate, error) {
			return a.getClientCertificate(&tls.CertificateRequestInfo{})
		}}
		conf.Wrap(func(rt http.RoundTripper) http.RoundTripper {
			layer := *a
			layer.next = rt
			return &layer
		})
	}
	return conf, nil
}
