package rest

import (
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
)

// Interface is the part of RESTClient that generated clients depend on; tests substitute fakes.
type Interface interface {
	// GetRateLimiter returns the client-side rate limiter, or nil when limiting is off.
	GetRateLimiter() RateLimiter
	// Verb starts a request with the given HTTP method.
	Verb(verb string) *Request
	// Post starts a POST request.
	Post() *Request
	// Put starts a PUT request.
	Put() *Request
	// Patch starts a PATCH request with the given patch type as its content type.
	Patch(pt types.PatchType) *Request
	// Get starts a GET request.
	Get() *Request
	// Delete starts a DELETE request.
	Delete() *Request
	// APIVersion returns the group and version the client talks to.
	APIVersion() schema.GroupVersion
}

// ClientContentConfig is the resolved encoding configuration of a RESTClient.
type ClientContentConfig struct {
	// AcceptContentTypes is the Accept header; ContentType is used when empty.
	AcceptContentTypes string
	// ContentType is the encoding of request bodies.
	ContentType string
	// GroupVersion is the API group and version of the client.
	GroupVersion schema.GroupVersion
	// Negotiator picks encoders and decoders by media type.
	Negotiator runtime.ClientNegotiator
}

const (
	mediaTypeJSON     = "application/json"
	mediaTypeProtobuf = "application/vnd.kubernetes.protobuf"
)

// RESTClient sends requests to one API group version of a server, encoding and decoding with its content config.
type RESTClient struct {
	base             *url.URL
	versionedAPIPath string
	content          ClientContentConfig
	// contentTypeDefaulted records that ContentType was not configured, so requests may prefer protobuf.
	contentTypeDefaulted bool
	rateLimiter          RateLimiter
	warningHandler       WarningHandlerWithContext
	// clock is what retries wait on; the real clock when nil.
	clock clock.Clock

	// Client performs the HTTP requests; http.DefaultClient when nil.
	Client *http.Client
}

var _ Interface = (*RESTClient)(nil)

// NewRESTClient returns a RESTClient for baseURL and versionedAPIPath (e.g. "/apis/apps/v1").
// A nil rateLimiter disables client-side rate limiting.
func NewRESTClient(baseURL *url.URL, versionedAPIPath string, config ClientContentConfig, rateLimiter RateLimiter, client *http.Client) (*RESTClient, error) {
	if baseURL == nil {
		return nil, fmt.Errorf("a base URL is required")
	}
	base := *baseURL
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	base.RawQuery = ""
	base.Fragment = ""
	defaulted := config.ContentType == ""
	if defaulted {
		config.ContentType = mediaTypeJSON
	}
	return &RESTClient{
		base:                 &base,
		versionedAPIPath:     versionedAPIPath,
		content:              config,
		contentTypeDefaulted: defaulted,
		rateLimiter:          rateLimiter,
		Client:               client,
	}, nil
}

// retryClock returns the clock retries wait on.
func (c *RESTClient) retryClock() clock.Clock {
	if c == nil || c.clock == nil {
		return clock.RealClock{}
	}
	return c.clock
}

// GetRateLimiter returns the client's rate limiter, or nil.
func (c *RESTClient) GetRateLimiter() RateLimiter {
	if c == nil {
		return nil
	}
	return c.rateLimiter
}

// Verb starts a request with the given HTTP method.
func (c *RESTClient) Verb(verb string) *Request { return NewRequest(c).Verb(verb) }

// Post starts a POST request.
func (c *RESTClient) Post() *Request { return c.Verb(http.MethodPost) }

// Put starts a PUT request.
func (c *RESTClient) Put() *Request { return c.Verb(http.MethodPut) }

// Patch starts a PATCH request whose body is of patch type pt.
func (c *RESTClient) Patch(pt types.PatchType) *Request {
	return c.Verb(http.MethodPatch).SetHeader("Content-Type", string(pt))
}

// Get starts a GET request.
func (c *RESTClient) Get() *Request { return c.Verb(http.MethodGet) }

// Delete starts a DELETE request.
func (c *RESTClient) Delete() *Request { return c.Verb(http.MethodDelete) }

// APIVersion returns the group and version of the client.
func (c *RESTClient) APIVersion() schema.GroupVersion { return c.content.GroupVersion }

// RESTClientFor returns a RESTClient for config, which must set GroupVersion and NegotiatedSerializer.
func RESTClientFor(config *Config) (*RESTClient, error) {
	if err := requireContent(config); err != nil {
		return nil, err
	}
	if _, _, err := DefaultServerURLFor(config); err != nil {
		return nil, err
	}
	httpClient, err := HTTPClientFor(config)
	if err != nil {
		return nil, err
	}
	return RESTClientForConfigAndClient(config, httpClient)
}

// RESTClientForGroupVersion returns a RESTClient for gv under apiPath ("/api" for the core group,
// "/apis" for the others), built from a copy of config that encodes and decodes scheme's types: the
// small single-purpose clients of runtime packages (event sinks, lease locks) use it.
func RESTClientForGroupVersion(config *Config, apiPath string, gv schema.GroupVersion, scheme *runtime.Scheme) (*RESTClient, error) {
	c := CopyConfig(config)
	c.APIPath = apiPath
	c.GroupVersion = &gv
	c.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	if c.ContentType == "" {
		c.ContentType = runtime.ContentTypeJSON
	}
	return RESTClientFor(c)
}

// RESTClientForConfigAndClient is RESTClientFor with an existing HTTP client, so one connection pool
// can serve several API groups.
func RESTClientForConfigAndClient(config *Config, httpClient *http.Client) (*RESTClient, error) {
	if err := requireContent(config); err != nil {
		return nil, err
	}
	return newClientForConfig(config, httpClient, *config.GroupVersion)
}

// UnversionedRESTClientFor returns a RESTClient for paths outside a group version (e.g. /version).
func UnversionedRESTClientFor(config *Config) (*RESTClient, error) {
	httpClient, err := HTTPClientFor(config)
	if err != nil {
		return nil, err
	}
	return UnversionedRESTClientForConfigAndClient(config, httpClient)
}

// UnversionedRESTClientForConfigAndClient is UnversionedRESTClientFor with an existing HTTP client.
func UnversionedRESTClientForConfigAndClient(config *Config, httpClient *http.Client) (*RESTClient, error) {
	if config.NegotiatedSerializer == nil {
		return nil, fmt.Errorf("NegotiatedSerializer is required when initializing a RESTClient")
	}
	var gv schema.GroupVersion
	if config.GroupVersion != nil {
		gv = *config.GroupVersion
	}
	return newClientForConfig(config, httpClient, gv)
}

func requireContent(config *Config) error {
	if config.GroupVersion == nil {
		return fmt.Errorf("GroupVersion is required when initializing a RESTClient")
	}
	if config.NegotiatedSerializer == nil {
		return fmt.Errorf("NegotiatedSerializer is required when initializing a RESTClient")
	}
	return nil
}

func newClientForConfig(config *Config, httpClient *http.Client, gv schema.GroupVersion) (*RESTClient, error) {
	baseURL, versionedAPIPath, err := DefaultServerURLFor(config)
	if err != nil {
		return nil, err
	}
	content := ClientContentConfig{
		AcceptContentTypes: config.AcceptContentTypes,
		ContentType:        config.ContentType,
		GroupVersion:       gv,
		Negotiator:         runtime.NewClientNegotiator(config.NegotiatedSerializer, gv),
	}
	c, err := NewRESTClient(baseURL, versionedAPIPath, content, rateLimiterFor(config), httpClient)
	if err != nil {
		return nil, err
	}
	c.warningHandler = warningHandlerFor(config)
	return c, nil
}

// rateLimiterFor returns config.RateLimiter, else a token bucket from QPS/Burst, or nil when QPS < 0.
func rateLimiterFor(config *Config) RateLimiter {
	if config.RateLimiter != nil {
		return config.RateLimiter
	}
	qps, burst := config.QPS, config.Burst
	if qps == 0 {
		qps = DefaultQPS
	}
	if burst == 0 {
		burst = DefaultBurst
	}
	if qps < 0 {
		return nil
	}
	return NewTokenBucketRateLimiter(qps, burst)
}

// DefaultServerURLFor parses config.Host and returns the base URL and the versioned API path.
func DefaultServerURLFor(config *Config) (*url.URL, string, error) {
	host := config.Host
	if host == "" {
		host = "localhost"
	}
	base, err := DefaultServerURL(host, IsConfigTransportTLS(*config))
	if err != nil {
		return nil, "", err
	}
	var gv schema.GroupVersion
	if config.GroupVersion != nil {
		gv = *config.GroupVersion
	}
	return base, DefaultVersionedAPIPath(config.APIPath, gv), nil
}

// IsConfigTransportTLS reports whether config talks TLS when its Host has no scheme: it has CA or client
// certificate settings or skips verification.
func IsConfigTransportTLS(config Config) bool {
	return config.Insecure || len(config.CAData) > 0 || config.CAFile != "" ||
		len(config.CertData) > 0 || config.CertFile != ""
}

// DefaultServerURL parses host (a host, host:port or URL) into a URL, choosing https when defaultTLS is set
// and no scheme is given.
func DefaultServerURL(host string, defaultTLS bool) (*url.URL, error) {
	if host == "" {
		return nil, fmt.Errorf("host must be a URL or a host:port pair")
	}
	hostURL, err := url.Parse(host)
	if err != nil || hostURL.Scheme == "" || hostURL.Host == "" {
		scheme := "http://"
		if defaultTLS {
			scheme = "https://"
		}
		hostURL, err = url.Parse(scheme + host)
		if err != nil {
			return nil, fmt.Errorf("host %q is not a valid URL or host:port pair: %w", host, err)
		}
	}
	return hostURL, nil
}

// DefaultVersionedAPIPath joins apiPath and the group version, e.g. "/apis/apps/v1" or "/api/v1".
func DefaultVersionedAPIPath(apiPath string, gv schema.GroupVersion) string {
	p := path.Join("/", apiPath)
	if gv.Group != "" {
		p = path.Join(p, gv.Group)
	}
	if gv.Version != "" {
		p = path.Join(p, gv.Version)
	}
	return p
}

// SetKubernetesDefaults fills in the default user agent when config has none.
func SetKubernetesDefaults(config *Config) error {
	if config.UserAgent == "" {
		config.UserAgent = DefaultKubernetesUserAgent()
	}
	return nil
}

// CodecFactoryForGeneratedClient returns the codec factory generated clients use to talk to the server.
// JSON and protobuf are offered as registered in codecs; scheme is accepted for client-go compatibility.
func CodecFactoryForGeneratedClient(scheme *runtime.Scheme, codecs serializer.CodecFactory) serializer.CodecFactory {
	return codecs
}

// AddUserAgent sets the user agent of config and returns it.
func AddUserAgent(config *Config, userAgent string) *Config {
	config.UserAgent = DefaultKubernetesUserAgent() + "/" + userAgent
	return config
}

// AnonymousClientConfig returns a copy of config without credentials, keeping server and TLS trust settings.
func AnonymousClientConfig(config *Config) *Config {
	return &Config{
		Host:          config.Host,
		APIPath:       config.APIPath,
		ContentConfig: config.ContentConfig,
		TLSClientConfig: TLSClientConfig{
			Insecure:   config.Insecure,
			ServerName: config.ServerName,
			CAFile:     config.CAFile,
			CAData:     cloneSlice(config.CAData),
			NextProtos: cloneSlice(config.NextProtos),
		},
		RateLimiter:               config.RateLimiter,
		WarningHandler:            config.WarningHandler,
		WarningHandlerWithContext: config.WarningHandlerWithContext,
		UserAgent:                 config.UserAgent,
		QPS:                       config.QPS,
		Burst:                     config.Burst,
		Timeout:                   config.Timeout,
		Dial:                      config.Dial,
		Proxy:                     config.Proxy,
	}
}
